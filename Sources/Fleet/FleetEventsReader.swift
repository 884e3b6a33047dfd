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
    }

    deinit {
        natsSubscription_Destroy(subscription)
    }

    /// Up to `batch` events messages, waiting at most `timeoutMilliseconds` for the first; `body` sees each,
    /// and each is acknowledged once `body` returns for it.
    public func read(batch: Int, timeoutMilliseconds: Int64, _ body: (Message) throws -> Void) throws -> Int {
        var list = natsMsgList()
        let status = pullFetch(&list, subscription, batch: batch, timeoutMilliseconds: timeoutMilliseconds)
        if status == NATS_TIMEOUT { return 0 }
        try check(status, "fetching events")
        defer { natsMsgList_Destroy(&list) }
        for i in 0..<Int(list.Count) {
            guard let message = list.Msgs[i] else { continue }
            var meta: UnsafeMutablePointer<jsMsgMetaData>?
            try check(natsMsg_GetMetaData(&meta, message), "reading an event's metadata")
            let sequence = meta!.pointee.Sequence.Stream
            jsMsgMetaData_Destroy(meta)
            let subject = String(cString: natsMsg_GetSubject(message))
            let count = Int(natsMsg_GetDataLength(message))
            let payload = natsMsg_GetData(message).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            let device = String(subject.dropFirst("geowake.event.".count))
            try body(Message(device: device, body: payload, streamSequence: sequence))
            try check(natsMsg_Ack(message, nil), "acknowledging an event")
        }
        return Int(list.Count)
    }
}
