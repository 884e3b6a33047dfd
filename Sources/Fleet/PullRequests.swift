import CNATS

/// Pull requests of geowake's own to a JetStream pull consumer: `{"batch":N,"expires":…}` published to the
/// consumer's next-message subject with replies to an inbox of ours, and the messages taken from that inbox as they
/// come, into a list of our own. Not libnats 3.4's `natsSubscription_Fetch`: when more than half its batch was
/// already waiting and more arrived during it, it wrote past the end of its list (heap corruption, an abort;
/// `PullFetchTests`). The partitions' reads and the events reader both pull this way.
final class PullRequests {
    private let subscription: OpaquePointer
    private let inbox: String
    /// Where pull requests for the consumer go.
    private let nextSubject: String
    /// Held so that the connection outlives the subscription made on it (see `FleetEventsReader`).
    private let connection: NATSConnection
    /// What the errors name ("partition 3", "the events").
    private let what: String

    init(_ connection: NATSConnection, stream: String, consumer: String, what: String) throws(NATSError) {
        self.connection = connection
        self.what = what
        var inbox: UnsafeMutablePointer<natsInbox>?
        try check(natsInbox_Create(&inbox), "making an inbox")
        defer { natsInbox_Destroy(inbox) }
        self.inbox = String(cString: inbox!)
        nextSubject = "$JS.API.CONSUMER.MSG.NEXT.\(stream).\(consumer)"
        var subscription: OpaquePointer?
        try check(natsConnection_SubscribeSync(&subscription, connection.connection, self.inbox), "subscribing to \(what)")
        // Nothing a pull request asked for may be dropped by the library: it would be acknowledged unread.
        natsSubscription_SetPendingLimits(subscription, -1, -1)
        self.subscription = subscription!
    }

    /// Unsubscribes, and lets the library's reader get past every message already sent here, before letting go: libnats
    /// 3.4's reader finds a message's subscription and only then locks it, holding no reference in between, and a pull
    /// still in flight keeps sending. A subscription freed in that window left the reader waiting on a freed mutex, and
    /// the connection's close then waited for the reader for good (`PullFetchTests` hung so in CI; gdb showed both
    /// threads). The server handles the flush's PING after the unsubscribe, and the reader the PONG after those messages.
    deinit {
        natsSubscription_Unsubscribe(subscription)
        natsConnection_FlushTimeout(connection.connection, 2000)
        natsSubscription_Destroy(subscription)
    }

    /// Messages the library holds for this subscription and no `take` has taken yet (the rest of a request whose
    /// `take` ended first).
    var waiting: Int {
        var count: Int32 = 0
        return natsSubscription_GetPending(subscription, &count, nil) == NATS_OK ? Int(count) : 0
    }

    /// Up to `count` messages, the caller's to destroy: first those already here, then, when fewer, the rest asked
    /// for in one request and taken as they come, waiting at most `timeoutMilliseconds` for the first and ending at
    /// a pause of `gapMilliseconds` between later ones.
    func take(_ count: Int, timeoutMilliseconds: Int64, gapMilliseconds: Int64) throws(NATSError) -> [OpaquePointer] {
        var messages: [OpaquePointer] = []
        do {
            while messages.count < count, let message = try next(timeoutMilliseconds: 0) { messages.append(message) }
            guard messages.count < count else { return messages }
            try request(count - messages.count, timeoutMilliseconds: timeoutMilliseconds)
            let deadline = WorkerStatistics.now() + timeoutMilliseconds * 1_000_000
            while messages.count < count {
                let left = min((deadline - WorkerStatistics.now()) / 1_000_000, messages.isEmpty ? timeoutMilliseconds : gapMilliseconds)
                guard left > 0, let message = try next(timeoutMilliseconds: left) else { break }
                messages.append(message)
            }
            return messages
        } catch {
            for message in messages { natsMsg_Destroy(message) }
            throw error
        }
    }

    /// Acknowledges `message` (under ack-all, every message before it too).
    func acknowledge(_ message: OpaquePointer) throws(NATSError) {
        guard let reply = natsMsg_GetReply(message) else { return }
        try check(natsConnection_Publish(connection.connection, reply, "+ACK", 4), "acknowledging \(what)")
    }

    /// `{"batch":N,"expires":…}` to the consumer; the server sends up to N messages to the inbox until it expires
    /// (10 ms before the caller stops waiting when it can, as libnats does).
    private func request(_ count: Int, timeoutMilliseconds: Int64) throws(NATSError) {
        let expires = (timeoutMilliseconds >= 20 ? timeoutMilliseconds - 10 : timeoutMilliseconds) * 1_000_000
        let body = Array("{\"batch\":\(count),\"expires\":\(expires)}".utf8)
        let status = body.withUnsafeBytes {
            natsConnection_PublishRequest(connection.connection, nextSubject, inbox, $0.baseAddress, Int32($0.count))
        }
        try check(status, "asking for \(what)'s messages")
    }

    /// The next message within the time given, status messages (a request's end, a heartbeat) dropped; nil when none
    /// came.
    private func next(timeoutMilliseconds: Int64) throws(NATSError) -> OpaquePointer? {
        while true {
            var message: OpaquePointer?
            let status = natsSubscription_NextMsg(&message, subscription, timeoutMilliseconds)
            if status == NATS_TIMEOUT { return nil }
            try check(status, "reading \(what)")
            var value: UnsafePointer<CChar>?
            if natsMsg_GetDataLength(message) == 0, natsMsgHeader_Get(message, "Status", &value) == NATS_OK {
                natsMsg_Destroy(message)
                continue
            }
            return message
        }
    }
}
