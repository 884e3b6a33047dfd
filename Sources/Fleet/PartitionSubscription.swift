#if canImport(Glibc)
import Glibc
#endif
import CNATS

/// A partition's input, read in stream order from a given sequence through the partition's durable pull
/// consumer (`geowake-partition-P`, replicated like the stream, so it outlives a node). The worker that
/// takes the partition re-creates it at the sequence after the checkpoint; the consumer does not decide
/// who reads (the lease does) nor where to resume (the checkpoint does).
final class PartitionSubscription {
    let partition: Int
    private let subscription: OpaquePointer
    /// Held so that the connection outlives the subscription made on it (see `FleetEventsReader`).
    private let connection: NATSConnection
    /// Payload bytes per message in the last fetch; until one, a guess that makes the first ask small (16).
    private var averageBytes = Int.max / 2

    static func durableName(_ partition: Int) -> String { "geowake-partition-\(partition)" }

    init(_ connection: NATSConnection, partition: Int, from sequence: UInt64) throws(NATSError) {
        self.partition = partition
        self.connection = connection
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

    /// One message as the library holds it: valid during the call it is handed to.
    struct Message {
        var sequence: UInt64
        var subject: UnsafeBufferPointer<UInt8>
        var payload: UnsafeRawBufferPointer
    }

    /// Fetches up to `batch` messages, fewer when the last fetch's messages say `maxBytes` would be passed (a
    /// batch of single fixes is small, one of batched fixes is not), waiting at most `timeoutMilliseconds` for
    /// the first; hands each to `body` in stream order where the library received it (no copy), then
    /// acknowledges the batch by its last message (the consumer acknowledges all before it). Returns how many
    /// there were. (The pull request's own byte limit, `natsSubscription_FetchRequest` with `MaxBytes`, waited
    /// far past its expiry with libnats 3.4 when the partition was empty.) `pullFetch` asks for more when
    /// messages are already waiting.
    func read(batch: Int, maxBytes: Int, timeoutMilliseconds: Int64, _ body: (Message) throws -> Void) throws -> Int {
        var list = natsMsgList()
        let asked = max(16, min(batch, maxBytes / max(1, averageBytes)))
        let status = pullFetch(&list, subscription, batch: asked, timeoutMilliseconds: timeoutMilliseconds)
        if status == NATS_TIMEOUT { return 0 }
        try check(status, "reading partition \(partition)")
        defer { natsMsgList_Destroy(&list) }
        let count = Int(list.Count)
        var bytes = 0
        defer { if count > 0 { averageBytes = max(1, bytes / count) } }
        for i in 0..<count {
            guard let message = list.Msgs[i] else { continue }
            let subject = natsMsg_GetSubject(message)!
            let payloadLength = Int(natsMsg_GetDataLength(message))
            bytes += payloadLength
            let sequence = try Self.streamSequence(message)
            if i == 0 {
                let told = try Self.metadataSequence(message)
                guard told == sequence else {
                    throw NATSError("reading partition \(partition): the reply subject says sequence \(sequence), the metadata \(told)", NATS_ERR)
                }
            }
            try body(Message(sequence: sequence,
                             subject: UnsafeBufferPointer(start: UnsafeRawPointer(subject).assumingMemoryBound(to: UInt8.self),
                                                          count: strlen(subject)),
                             payload: UnsafeRawBufferPointer(start: natsMsg_GetData(message), count: payloadLength)))
        }
        // Acknowledging the last acknowledges the batch; where to resume is the checkpoint's business.
        if count > 0, let last = list.Msgs[count - 1] { natsMsg_Ack(last, nil) }
        return count
    }

    /// The stream sequence, read from the reply subject `$JS.ACK.<stream>.<consumer>.<delivered>.<stream
    /// seq>.…` (9 tokens; 12 with a domain and account hash, the sequence then 2 further on) without the
    /// metadata call, which allocates a structure and copies the stream and consumer names per message.
    static func streamSequence(_ message: OpaquePointer) throws(NATSError) -> UInt64 {
        if let reply = natsMsg_GetReply(message) {
            // Token k spans [start[k], end[k]); only tokens 5 and 7 are kept.
            var token = 0, start = 0, i = 0
            var five = (0, 0), seven = (0, 0)
            while true {
                let c = reply[i]
                if c == 0x2E || c == 0 {
                    if token == 5 { five = (start, i) } else if token == 7 { seven = (start, i) }
                    if c == 0 { break }
                    token += 1
                    start = i + 1
                }
                i += 1
            }
            let span = token + 1 == 9 ? five : token + 1 >= 11 ? seven : (0, 0)
            if span.1 > span.0 {
                var value: UInt64 = 0
                var j = span.0
                while j < span.1, reply[j] >= 0x30, reply[j] <= 0x39 {
                    value = value &* 10 &+ UInt64(reply[j] - 0x30)
                    j += 1
                }
                if j == span.1 { return value }
            }
        }
        return try metadataSequence(message)
    }

    /// The library's own reading (checked against ours once per batch).
    static func metadataSequence(_ message: OpaquePointer) throws(NATSError) -> UInt64 {
        var meta: UnsafeMutablePointer<jsMsgMetaData>?
        try check(natsMsg_GetMetaData(&meta, message), "reading a message's metadata")
        defer { jsMsgMetaData_Destroy(meta) }
        return meta!.pointee.Sequence.Stream
    }
}
