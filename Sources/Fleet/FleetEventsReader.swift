import CNATS

/// Reads the events stream through a durable pull consumer with explicit acknowledgement: what was read
/// and acknowledged is not given again to the same durable name; what was read but not acknowledged
/// (a reader killed mid-batch) comes again after the acknowledgement wait.
public final class FleetEventsReader {
    private let subscription: OpaquePointer
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

    public init(_ connection: NATSConnection, durable: String, device: String? = nil) throws(NATSError) {
        var options = jsSubOptions()
        jsSubOptions_Init(&options)
        options.Config.AckPolicy = js_AckExplicit
        options.Config.AckWait = 30_000_000_000
        options.Config.MaxAckPending = 65536
        var subscription: OpaquePointer?
        var code = jsErrCode(0)
        let subject = device.map { FleetLayout.eventSubject(device: $0) } ?? FleetLayout.eventsStreamSubject
        let status = FleetLayout.eventsStream.withCString { stream in
            options.Stream = stream
            return js_PullSubscribe(&subscription, connection.jetStream, subject, durable, nil, &options, &code)
        }
        try check(status, "subscribing to \(subject) as \(durable)")
        self.subscription = subscription!
        self.connection = connection
        self.durable = durable
    }

    deinit {
        natsSubscription_Destroy(subscription)
    }

    /// Up to `batch` events messages, fewer when the last fetch's messages say `maxBytes` would be passed, waiting
    /// at most `timeoutMilliseconds` for the first; `body` sees each, and each is acknowledged once `body` returns
    /// for it. The byte bound matters: a fetch's messages are all sent at once, and a server that holds more than
    /// its `max_pending` (64 MB by default) for a reader that is slow to take them cuts the connection as a slow
    /// consumer; what it had sent is then given again only after the acknowledgement wait (512 events messages
    /// at a million regions were 88 MB).
    public func read(batch: Int, maxBytes: Int = 4 << 20, timeoutMilliseconds: Int64, _ body: (Message) throws -> Void) throws -> Int {
        var list = natsMsgList()
        let asked = averageBytes.map { max(1, min(batch, maxBytes / $0)) } ?? min(batch, 16)
        let status = pullFetch(&list, subscription, batch: asked, timeoutMilliseconds: timeoutMilliseconds)
        if status == NATS_TIMEOUT { return 0 }
        try check(status, "fetching events")
        defer { natsMsgList_Destroy(&list) }
        var bytes = 0
        defer { if list.Count > 0 { averageBytes = max(1, bytes / Int(list.Count)) } }
        for i in 0..<Int(list.Count) {
            guard let message = list.Msgs[i] else { continue }
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
            try check(natsMsg_Ack(message, nil), "acknowledging an event")
        }
        return Int(list.Count)
    }

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
