#if canImport(Glibc)
import Glibc
#endif
import CNATS
import Synchronization

/// One connection to a NATS cluster with its JetStream context. The servers are all given so the client
/// fails over when a node goes; it reconnects forever, and publishes made while reconnecting are buffered.
/// Used from one thread; only the failure counter is touched by the library's own threads.
public final class NATSConnection {
    let connection: OpaquePointer
    let jetStream: OpaquePointer
    /// Asynchronous publishes the server refused or never acknowledged, since the connection was made.
    let publishFailures: PublishFailures

    /// libnats spins up to 2,000 times on a locked mutex before it sleeps. A worker's threads (its own and the
    /// library's reader, flusher and acknowledgement threads) share the one core it is pinned to, where the holder
    /// cannot run while another spins: `natsMutex_Lock` was 2.6% of a worker's samples, nearly all of it spinning.
    /// So the library is opened with no spinning, before the first connection (which would open it with the default).
    private static let libraryOpened: natsStatus = nats_Open(0)

    /// `ioBufferBytes`: the library's socket read and write buffer (its default is 32 KB). `sendsAtOnce`: each
    /// publish is written to the socket by the calling thread, not left to the library's flusher thread, which
    /// wakes for it and sleeps 1 ms before it writes (a worker's few publishes per input message then cost two
    /// thread switches each; a publisher's thousands of small messages a window gain from the flusher's batching).
    public init(servers: [String], name: String, ioBufferBytes: Int? = nil, sendsAtOnce: Bool = false) throws(NATSError) {
        try check(Self.libraryOpened, "opening the NATS library")
        var options: OpaquePointer?
        try check(natsOptions_Create(&options), "creating NATS options")
        defer { natsOptions_Destroy(options) }
        var cStrings = servers.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        try cStrings.withUnsafeMutableBufferPointer { (buffer) throws(NATSError) in
            let pointers = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: buffer.count)
            defer { pointers.deallocate() }
            for (i, s) in buffer.enumerated() { pointers[i] = UnsafePointer(s) }
            try check(natsOptions_SetServers(options, pointers, Int32(buffer.count)), "setting the NATS servers")
        }
        try check(natsOptions_SetName(options, name), "naming the connection")
        try check(natsOptions_SetMaxReconnect(options, -1), "setting reconnects")
        try check(natsOptions_SetReconnectWait(options, 100), "setting the reconnect wait")
        try check(natsOptions_SetReconnectBufSize(options, 64 << 20), "setting the reconnect buffer")
        try check(natsOptions_SetTimeout(options, 2000), "setting the connect timeout")
        // Without a deadline libnats writes to a blocking socket while holding the connection's lock: a server
        // that stops reading would hang every publish, acknowledgement and pull request for good. With one, a write
        // stuck for 10 s drops the connection, which counts as a failure below and reconnects.
        try check(natsOptions_SetWriteDeadline(options, 10_000), "setting the write deadline")
        if sendsAtOnce { try check(natsOptions_SetSendAsap(options, true), "sending at once") }
        if let ioBufferBytes { try check(natsOptions_SetIOBufSize(options, Int32(ioBufferBytes)), "setting the I/O buffer") }
        // A dropped connection loses what was written to it and not yet acknowledged: it counts as a failure,
        // so that publishers re-send and workers go back to their checkpoints at once, not 5 s later.
        let failures = PublishFailures()
        publishFailures = failures
        try check(natsOptions_SetDisconnectedCB(options, { _, closure in
            guard let closure else { return }
            Unmanaged<PublishFailures>.fromOpaque(closure).takeUnretainedValue().count.add(1, ordering: .relaxed)
        // Retained for the library: its callback thread may run the handler after this connection is gone.
        }, Unmanaged.passRetained(failures).toOpaque()), "setting the disconnect handler")
        var connection: OpaquePointer?
        try check(natsConnection_Connect(&connection, options), "connecting to \(servers.joined(separator: ","))")
        self.connection = connection!
        var jsOptions = jsOptions()
        jsOptions_Init(&jsOptions)
        jsOptions.Wait = 10_000
        jsOptions.PublishAsync.MaxPending = 16384
        // A full window waits for acknowledgements (back-pressure from a busy server) rather than failing
        // after the default 200 ms: at 100,000 devices each failure sent a worker back to its checkpoints.
        jsOptions.PublishAsync.StallWait = 10_000
        jsOptions.PublishAsync.ErrHandlerClosure = Unmanaged.passUnretained(failures).toOpaque()
        jsOptions.PublishAsync.ErrHandler = { _, failure, closure in
            guard let closure else { return }
            Unmanaged<PublishFailures>.fromOpaque(closure).takeUnretainedValue().count.add(1, ordering: .relaxed)
            _ = failure
        }
        var jetStream: OpaquePointer?
        let status = natsConnection_JetStream(&jetStream, connection, &jsOptions)
        guard status == NATS_OK else {
            natsConnection_Destroy(connection)
            throw NATSError("opening JetStream", status)
        }
        self.jetStream = jetStream!
    }

    deinit {
        jsCtx_Destroy(jetStream)
        natsConnection_Destroy(connection)
    }

    /// Publishes without waiting; `messageID` becomes `Nats-Msg-Id`, which the stream de-duplicates on.
    /// An acknowledgement that does not come within 5 s (lost with a node) counts as a failure, so that
    /// `completePublishes` always ends.
    func publishAsync(_ subject: String, _ payload: UnsafeRawBufferPointer, messageID: String?) throws(NATSError) {
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        options.MaxWait = 5000
        let status: natsStatus
        if let messageID {
            status = messageID.withCString { id in
                options.MsgId = id
                return js_PublishAsync(jetStream, subject, payload.baseAddress, Int32(payload.count), &options)
            }
        } else {
            status = js_PublishAsync(jetStream, subject, payload.baseAddress, Int32(payload.count), &options)
        }
        try check(status, "publishing to \(subject)")
    }

    /// As above, with subject and id as C strings the caller builds in place (a worker's events: no string
    /// allocated per event).
    func publishAsync(subject: UnsafePointer<CChar>, _ payload: UnsafeRawBufferPointer,
                      messageID: UnsafePointer<CChar>) throws(NATSError) {
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        options.MaxWait = 5000
        options.MsgId = messageID
        let status = js_PublishAsync(jetStream, subject, payload.baseAddress, Int32(payload.count), &options)
        try check(status, "publishing to \(String(cString: subject))")
    }

    /// Waits until every asynchronous publish is acknowledged or failed; nil when all were stored, else why not:
    /// some failed since `failuresBefore`, or some did not complete within the timeout.
    func completePublishes(timeoutMilliseconds: Int64, failuresBefore: Int) -> String? {
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        options.MaxWait = timeoutMilliseconds
        let status = js_PublishAsyncComplete(jetStream, &options)
        let failures = publishFailures.count.load(ordering: .relaxed) - failuresBefore
        if status != NATS_OK { return "not all acknowledged within \(timeoutMilliseconds) ms (\(String(cString: natsStatus_GetText(status))))" }
        return failures == 0 ? nil : "\(failures) failed or the connection dropped"
    }

    var failureCount: Int { publishFailures.count.load(ordering: .relaxed) }

    /// The largest message the connected server takes (its `max_payload`).
    var maxPayload: Int { Int(natsConnection_GetMaxPayload(connection)) }

    /// A plain NATS publish (no JetStream acknowledgement).
    func publish(_ subject: String, _ payload: [UInt8]) throws(NATSError) {
        let status = payload.withUnsafeBytes { natsConnection_Publish(connection, subject, $0.baseAddress, Int32($0.count)) }
        try check(status, "publishing to \(subject)")
    }

    /// Publishes and waits for the stream's acknowledgement.
    func publishAcknowledged(_ subject: String, _ payload: [UInt8], messageID: String? = nil) throws(NATSError) {
        var options = jsPubOptions()
        jsPubOptions_Init(&options)
        let status = payload.withUnsafeBytes { bytes in
            (messageID ?? "").withCString { id in
                if messageID != nil { options.MsgId = id }
                return js_Publish(nil, jetStream, subject, bytes.baseAddress, Int32(bytes.count), &options, nil)
            }
        }
        try check(status, "publishing to \(subject)")
    }

    func flush(timeoutMilliseconds: Int64 = 5000) throws(NATSError) {
        try check(natsConnection_FlushTimeout(connection, timeoutMilliseconds), "flushing the connection")
    }
}

/// Counted by the library's publish-acknowledgement thread, read by the worker's.
final class PublishFailures: Sendable {
    let count = Atomic<Int>(0)
}
