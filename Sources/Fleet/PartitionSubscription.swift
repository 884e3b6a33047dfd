import CNATS

/// A partition's input, read in stream order from a given sequence by a JetStream ordered consumer: an
/// ephemeral consumer the client re-creates from the last sequence it saw whenever a gap or a lost
/// heartbeat shows it broke (a node lost, a reconnect). Which worker reads a partition is decided by the
/// partition's lease, not by the consumer.
final class PartitionSubscription {
    let partition: Int
    private let subscription: OpaquePointer

    struct Message {
        var sequence: UInt64
        var subject: String
        var payload: [UInt8]
    }

    init(_ connection: NATSConnection, partition: Int, from sequence: UInt64) throws(NATSError) {
        self.partition = partition
        var options = jsSubOptions()
        jsSubOptions_Init(&options)
        options.Ordered = true
        if sequence > 1 {
            options.Config.DeliverPolicy = js_DeliverByStartSequence
            options.Config.OptStartSeq = sequence
        }
        options.Config.Heartbeat = 1_000_000_000
        var subscription: OpaquePointer?
        var code = jsErrCode(0)
        let status = FleetLayout.fixesStream.withCString { stream in
            options.Stream = stream
            return js_SubscribeSync(&subscription, connection.jetStream, FleetLayout.partitionFilter(partition),
                                    nil, &options, &code)
        }
        try check(status, "subscribing to partition \(partition)")
        natsSubscription_SetPendingLimits(subscription, 1 << 20, 256 << 20)
        self.subscription = subscription!
    }

    deinit {
        natsSubscription_Unsubscribe(subscription)
        natsSubscription_Destroy(subscription)
    }

    /// Messages waiting in the client, not yet read.
    var pending: Int {
        var messages: Int32 = 0
        var bytes: Int32 = 0
        natsSubscription_GetPending(subscription, &messages, &bytes)
        return Int(messages)
    }

    /// The next message, waiting at most `timeoutMilliseconds`; nil when none came.
    func next(timeoutMilliseconds: Int64) throws(NATSError) -> Message? {
        var message: OpaquePointer?
        let status = natsSubscription_NextMsg(&message, subscription, timeoutMilliseconds)
        if status == NATS_TIMEOUT { return nil }
        try check(status, "reading partition \(partition)")
        defer { natsMsg_Destroy(message) }
        var meta: UnsafeMutablePointer<jsMsgMetaData>?
        try check(natsMsg_GetMetaData(&meta, message), "reading a message's metadata")
        defer { jsMsgMetaData_Destroy(meta) }
        let count = Int(natsMsg_GetDataLength(message))
        let payload = natsMsg_GetData(message).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
        return Message(sequence: meta!.pointee.Sequence.Stream, subject: String(cString: natsMsg_GetSubject(message)),
                       payload: payload)
    }
}
