#if canImport(Glibc)
import Glibc
#endif
import CNATS

/// A partition's input, read in stream order from a given sequence through the durable pull consumer of the
/// partition's stream (`geowake-partition-P`, unfiltered, replicated like the stream, so it outlives a node). The worker that
/// takes the partition re-creates it at the sequence after the checkpoint; the consumer does not decide
/// who reads (the lease does) nor where to resume (the checkpoint does).
final class PartitionSubscription {
    let partition: Int
    private let pulls: PullRequests
    private let connection: NATSConnection
    /// Payload bytes per message in the last fetch; until one, a guess that makes the first ask small (16).
    private var averageBytes = Int.max / 2
    /// The consumer's sequence of the last message taken: every delivery to this subscription counts one, so a
    /// jump means messages given to it were lost before it took them (a libnats overrun, a cut connection).
    private var consumerSequence: UInt64 = 0
    /// When the consumer was last asked, after an empty fetch, whether messages wait (`stalled`).
    private var lastStallCheck: Int64 = 0
    private var nextFetchIsLong = false

    static func durableName(_ partition: Int) -> String { "geowake-partition-\(partition)" }
    /// Messages the consumer gives out unacknowledged: room for a whole fetch (`FleetTiming.fetchBatch`) and
    /// the rest of an earlier one still waiting in the library.
    static let maxAckPending: Int64 = 65_536

    init(_ connection: NATSConnection, partition: Int, from sequence: UInt64) throws(NATSError) {
        self.partition = partition
        self.connection = connection
        let durable = Self.durableName(partition)
        var code = jsErrCode(0)
        let stream = FleetLayout.fixesStream(partition)
        let deleted = js_DeleteConsumer(connection.jetStream, stream, durable, nil, &code)
        guard deleted == NATS_OK || deleted == NATS_NOT_FOUND || code == jsErrCode(10014) else {
            throw NATSError("removing the consumer \(durable)", deleted)
        }
        var config = jsConsumerConfig()
        jsConsumerConfig_Init(&config)
        config.AckPolicy = js_AckAll
        config.AckWait = 60_000_000_000
        // Asked as -1 (no limit), nats-server 2.9 stored its default of 1000: a read of small messages (one fix
        // each) stopped at 1000 of the 4096 it asked for. Each read acknowledges its batch, so this bounds nothing else.
        config.MaxAckPending = Self.maxAckPending
        if sequence > 1 {
            config.DeliverPolicy = js_DeliverByStartSequence
            config.OptStartSeq = sequence
        }
        var info: UnsafeMutablePointer<jsConsumerInfo>?
        let created = durable.withCString { name in
            config.Durable = name
            return js_AddConsumer(&info, connection.jetStream, stream, &config, nil, &code)
        }
        jsConsumerInfo_Destroy(info)
        try check(created, "creating the consumer \(durable)")
        pulls = try PullRequests(connection, stream: stream, consumer: durable, what: "partition \(partition)")
    }

    /// Messages the library holds for this subscription and no read has taken yet (the rest of a request whose
    /// read ended first).
    var waiting: Int { pulls.waiting }

    /// One message as the library holds it: valid during the call it is handed to.
    struct Message {
        var sequence: UInt64
        var subject: UnsafeBufferPointer<UInt8>
        var payload: UnsafeRawBufferPointer
    }

    /// Takes up to `batch` messages, fewer when the last read's messages say `maxBytes` would be passed (a batch of
    /// single fixes is small, one of batched fixes is not), waiting at most `timeoutMilliseconds`; hands each to
    /// `body` in stream order (no copy), then acknowledges the batch by its last message (the consumer
    /// acknowledges all before it). Returns how many there were. Read by pull requests of our own
    /// (`PullRequests`), not libnats 3.4's fetch.
    func read(batch: Int, maxBytes: Int, timeoutMilliseconds: Int64, _ body: (Message) throws -> Void) throws -> Int {
        let asked = max(16, min(batch, maxBytes / max(1, averageBytes)))
        let timeout = nextFetchIsLong ? max(timeoutMilliseconds, 100) : timeoutMilliseconds
        nextFetchIsLong = false
        // Once messages come, a pause of 1 ms between them ends the read: a long read (below) waits for its first
        // message, not for a batch the partition may not have.
        let messages = try pulls.take(asked, timeoutMilliseconds: timeout, gapMilliseconds: 1)
        defer { for message in messages { natsMsg_Destroy(message) } }
        let count = messages.count
        if count == 0 {
            nextFetchIsLong = stalled()
            return 0
        }
        var bytes = 0
        defer { averageBytes = max(1, bytes / count) }
        for (i, message) in messages.enumerated() {
            let subject = natsMsg_GetSubject(message)!
            let payloadLength = Int(natsMsg_GetDataLength(message))
            bytes += payloadLength
            let (sequence, delivery) = try Self.sequences(message)
            if let delivery {
                // Lost input would be acknowledged by the next batch's AckAll: stop and re-read from the checkpoint.
                guard consumerSequence == 0 || delivery == consumerSequence + 1 else {
                    throw NATSError("reading partition \(partition): messages given to this worker were lost before it took them (consumer sequence \(consumerSequence), then \(delivery))", NATS_ERR)
                }
                consumerSequence = delivery
            }
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
        try pulls.acknowledge(messages[count - 1])
        return count
    }

    /// nats-server 2.9 lets a pull request of a millisecond expire unserved while it loads the file block (8 MB)
    /// holding the consumer's next message, and the next such request too, again and again: partition reads with
    /// 1 ms fetches stopped at a block's start with thousands of messages waiting (`PullFetchTests`), where a
    /// 20 ms fetch went on. So after an empty fetch, at most every half second, the consumer is asked whether
    /// messages wait; when some do, the next fetch waits up to 100 ms.
    private func stalled() -> Bool {
        let now = WorkerStatistics.now()
        guard now - lastStallCheck >= 500_000_000 else { return false }
        lastStallCheck = now
        var info: UnsafeMutablePointer<jsConsumerInfo>?
        var code = jsErrCode(0)
        guard js_GetConsumerInfo(&info, connection.jetStream, FleetLayout.fixesStream(partition), Self.durableName(partition),
                                 nil, &code) == NATS_OK else { return false }
        defer { jsConsumerInfo_Destroy(info) }
        return info!.pointee.NumPending > 0
    }

    /// The stream and consumer sequences, read from the reply subject `$JS.ACK.<stream>.<consumer>.<delivered>.
    /// <stream seq>.<consumer seq>.…` (9 tokens; 12 with a domain and account hash, the sequences then 2 further
    /// on) without the metadata call, which allocates a structure and copies the stream and consumer names per
    /// message. The consumer sequence is nil when the reply subject is not of that form.
    static func sequences(_ message: OpaquePointer) throws(NATSError) -> (stream: UInt64, consumer: UInt64?) {
        if let reply = natsMsg_GetReply(message) {
            // Token k spans [start[k], end[k]); only tokens 5 to 8 are kept.
            var token = 0, start = 0, i = 0
            var spans = [(Int, Int)](repeating: (0, 0), count: 4)
            while true {
                let c = reply[i]
                if c == 0x2E || c == 0 {
                    if token >= 5, token <= 8 { spans[token - 5] = (start, i) }
                    if c == 0 { break }
                    token += 1
                    start = i + 1
                }
                i += 1
            }
            let first = token + 1 == 9 ? 0 : token + 1 >= 11 ? 2 : nil
            if let first, let stream = decimal(reply, spans[first]), let consumer = decimal(reply, spans[first + 1]) {
                return (stream, consumer)
            }
        }
        return (try metadataSequence(message), nil)
    }

    private static func decimal(_ text: UnsafePointer<CChar>, _ span: (Int, Int)) -> UInt64? {
        guard span.1 > span.0 else { return nil }
        var value: UInt64 = 0
        for j in span.0..<span.1 {
            guard text[j] >= 0x30, text[j] <= 0x39 else { return nil }
            value = value &* 10 &+ UInt64(text[j] - 0x30)
        }
        return value
    }

    /// The library's own reading (checked against ours once per batch).
    static func metadataSequence(_ message: OpaquePointer) throws(NATSError) -> UInt64 {
        var meta: UnsafeMutablePointer<jsMsgMetaData>?
        try check(natsMsg_GetMetaData(&meta, message), "reading a message's metadata")
        defer { jsMsgMetaData_Destroy(meta) }
        return meta!.pointee.Sequence.Stream
    }
}
