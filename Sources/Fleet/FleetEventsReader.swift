import CNATS

/// Reads the events stream through a durable pull consumer with explicit acknowledgement: what was read
/// and acknowledged is not given again to the same durable name; what was read but not acknowledged
/// (a reader killed mid-batch) comes again after the acknowledgement wait. Pulled by requests of our own
/// (`PullRequests`), not libnats 3.4's fetch, which could write past the end of its list.
public final class FleetEventsReader {
    private let pulls: PullRequests
    /// Held so that the connection (and its JetStream context) outlives the subscription made on it: Swift may
    /// end a caller's last reference to the connection before the reader's, and libnats aborts (SIGABRT in
    /// `natsMutex_Lock`) when an object it locks was freed.
    private let connection: NATSConnection
    private let durable: String
    /// Payload bytes per message in the last fetch (none before the first, which asks for 16).
    private var averageBytes: Int?

    /// One events message: what one input message gave one device.
    public struct Message {
        public var device: String
        /// The event lines (`geowake replay`'s), each ending in a newline, in order.
        public var body: [UInt8]
        public var streamSequence: UInt64
    }

    /// Reads as the durable consumer `durable`, made on first use for `device`'s events (every device's when nil);
    /// a durable made for other events is refused rather than read.
    public init(_ connection: NATSConnection, durable: String, device: String? = nil) throws(NATSError) {
        let subject = device.map { FleetLayout.eventSubject(device: $0) } ?? FleetLayout.eventsStreamSubject
        try Self.consumer(connection, durable: durable, reading: subject)
        pulls = try PullRequests(connection, stream: FleetLayout.eventsStream, consumer: durable, what: "the events")
        self.connection = connection
        self.durable = durable
    }

    /// The durable consumer, made when there is none yet.
    private static func consumer(_ connection: NATSConnection, durable: String, reading subject: String) throws(NATSError) {
        var info: UnsafeMutablePointer<jsConsumerInfo>?
        var code = jsErrCode(0)
        let found = js_GetConsumerInfo(&info, connection.jetStream, FleetLayout.eventsStream, durable, nil, &code)
        if found == NATS_OK {
            defer { jsConsumerInfo_Destroy(info) }
            let filter = info!.pointee.Config.pointee.FilterSubject.map { String(cString: $0) } ?? ""
            guard filter == subject else {
                throw NATSError("reading \(subject) as \(durable): that durable reads \(filter.isEmpty ? "every subject" : filter)", NATS_ERR)
            }
            return
        }
        guard found == NATS_NOT_FOUND || code == jsErrCode(10014) else { throw NATSError("asking for the consumer \(durable)", found) }
        var config = jsConsumerConfig()
        jsConsumerConfig_Init(&config)
        config.AckPolicy = js_AckExplicit
        config.AckWait = 30_000_000_000
        config.MaxAckPending = 65536
        let created = durable.withCString { name in
            subject.withCString { filter in
                config.Durable = name
                config.FilterSubject = filter
                return js_AddConsumer(&info, connection.jetStream, FleetLayout.eventsStream, &config, nil, &code)
            }
        }
        jsConsumerInfo_Destroy(info)
        try check(created, "making the consumer \(durable) for \(subject)")
    }

    /// Up to `batch` events messages, fewer when the last fetch's messages say `maxBytes` would be passed, waiting
    /// at most `timeoutMilliseconds` for the first; `body` sees each, and each is acknowledged once `body` returns
    /// for it. The byte bound matters: a fetch's messages are all sent at once, and a server that holds more than
    /// its `max_pending` (64 MB by default) for a reader that is slow to take them cuts the connection as a slow
    /// consumer; what it had sent is then given again only after the acknowledgement wait (512 events messages
    /// at a million regions were 88 MB).
    public func read(batch: Int, maxBytes: Int = 4 << 20, timeoutMilliseconds: Int64, _ body: (Message) throws -> Void) throws -> Int {
        let asked = averageBytes.map { max(1, min(batch, maxBytes / $0)) } ?? min(batch, 16)
        // A read ends at a pause of 20 ms between messages, not at its timeout: a reader at the stream's end waits
        // for the first message only.
        let messages = try pulls.take(asked, timeoutMilliseconds: timeoutMilliseconds, gapMilliseconds: 20)
        defer { for message in messages { natsMsg_Destroy(message) } }
        var bytes = 0
        defer { if !messages.isEmpty { averageBytes = max(1, bytes / messages.count) } }
        for message in messages {
            var meta: UnsafeMutablePointer<jsMsgMetaData>?
            try check(natsMsg_GetMetaData(&meta, message), "reading an event's metadata")
            let sequence = meta!.pointee.Sequence.Stream
            jsMsgMetaData_Destroy(meta)
            let subject = String(cString: natsMsg_GetSubject(message))
            let count = Int(natsMsg_GetDataLength(message))
            bytes += count
            let payload = natsMsg_GetData(message).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            let device = String(subject.dropFirst("geowake.event.".count))
            try body(Message(device: device, body: payload, streamSequence: sequence))
            try pulls.acknowledge(message)
        }
        return messages.count
    }

    /// Messages here already that no read has taken yet (the rest of a read that ended first).
    var waiting: Int { pulls.waiting }

    /// Messages of the consumer not yet read (`undelivered`) and read but not acknowledged (`unacknowledged`: given
    /// on a connection that was then cut, or to another reader of the same name); these come again after the
    /// acknowledgement wait, so a reader that stops while any are left has not read everything.
    public func outstanding() throws(NATSError) -> (undelivered: UInt64, unacknowledged: Int64) {
        var info: UnsafeMutablePointer<jsConsumerInfo>?
        var code = jsErrCode(0)
        // By name: libnats 3.4's natsSubscription_GetConsumerInfo refuses a subscription bound to an existing durable.
        try check(js_GetConsumerInfo(&info, connection.jetStream, FleetLayout.eventsStream, durable, nil, &code),
                  "asking for the consumer \(durable)'s state")
        defer { jsConsumerInfo_Destroy(info) }
        return (info!.pointee.NumPending, info!.pointee.NumAckPending)
    }
}
