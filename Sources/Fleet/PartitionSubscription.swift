import CNATS

/// A partition's input, read in stream order from a given sequence through the partition's durable pull
/// consumer (`geowake-partition-P`, replicated like the stream, so it outlives a node). The worker that
/// takes the partition re-creates it at the sequence after the checkpoint; the consumer does not decide
/// who reads (the lease does) nor where to resume (the checkpoint does).
final class PartitionSubscription {
    let partition: Int
    private let subscription: OpaquePointer
    private var batch: [Message] = []
    private var nextInBatch = 0

    struct Message {
        var sequence: UInt64
        var subject: String
        var payload: [UInt8]
    }

    static func durableName(_ partition: Int) -> String { "geowake-partition-\(partition)" }

    init(_ connection: NATSConnection, partition: Int, from sequence: UInt64) throws(NATSError) {
        self.partition = partition
        let durable = Self.durableName(partition)
        var code = jsErrCode(0)
        let deleted = js_DeleteConsumer(connection.jetStream, FleetLayout.fixesStream, durable, nil, &code)
        guard deleted == NATS_OK || deleted == NATS_NOT_FOUND || code == jsErrCode(10014) else {
            throw NATSError("removing the consumer \(durable)", deleted)
        }
        var options = jsSubOptions()
        jsSubOptions_Init(&options)
        options.Config.AckPolicy = js_AckAll
        options.Config.AckWait = 60_000_000_000
        options.Config.MaxAckPending = -1
        if sequence > 1 {
            options.Config.DeliverPolicy = js_DeliverByStartSequence
            options.Config.OptStartSeq = sequence
        }
        var subscription: OpaquePointer?
        let status = FleetLayout.fixesStream.withCString { stream in
            options.Stream = stream
            return js_PullSubscribe(&subscription, connection.jetStream, FleetLayout.partitionFilter(partition), durable,
                                    nil, &options, &code)
        }
        try check(status, "subscribing to partition \(partition)")
        self.subscription = subscription!
    }

    deinit {
        natsSubscription_Destroy(subscription)
    }

    /// The next message; fetches a batch when the last one is used up, waiting at most `timeoutMilliseconds`.
    /// Nil when nothing came.
    func next(timeoutMilliseconds: Int64) throws(NATSError) -> Message? {
        if nextInBatch < batch.count {
            nextInBatch += 1
            return batch[nextInBatch - 1]
        }
        try fetch(timeoutMilliseconds: timeoutMilliseconds)
        guard !batch.isEmpty else { return nil }
        nextInBatch = 1
        return batch[0]
    }

    private func fetch(timeoutMilliseconds: Int64) throws(NATSError) {
        batch.removeAll(keepingCapacity: true)
        nextInBatch = 0
        var list = natsMsgList()
        var code = jsErrCode(0)
        let status = natsSubscription_Fetch(&list, subscription, 1024, timeoutMilliseconds, &code)
        if status == NATS_TIMEOUT { return }
        try check(status, "reading partition \(partition)")
        defer { natsMsgList_Destroy(&list) }
        guard list.Count > 0 else { return }
        for i in 0..<Int(list.Count) {
            guard let message = list.Msgs[i] else { continue }
            var meta: UnsafeMutablePointer<jsMsgMetaData>?
            try check(natsMsg_GetMetaData(&meta, message), "reading a message's metadata")
            let sequence = meta!.pointee.Sequence.Stream
            jsMsgMetaData_Destroy(meta)
            let count = Int(natsMsg_GetDataLength(message))
            let payload = natsMsg_GetData(message).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            batch.append(Message(sequence: sequence, subject: String(cString: natsMsg_GetSubject(message)), payload: payload))
        }
        // Acknowledging the last acknowledges the batch; where to resume is the checkpoint's business.
        if let last = list.Msgs[Int(list.Count) - 1] { natsMsg_Ack(last, nil) }
    }
}
