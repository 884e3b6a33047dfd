import GeoWakeCore
import GeoWakeProtocol

/// hello, register, unregister, ack.
extension DaemonCore {
    static let maximumClientsPerUID = 1000

    func hello(_ request: Request) throws -> [String: JSONValue] {
        guard !request.session.saidHello else { throw ProtocolError.badRequest("hello was already sent") }
        let version = try request.typed(HelloRequest.init(fields:)).version
        guard version == Int64(Daemon.protocolVersion) else {
            throw ProtocolError("protocolMismatch", "geowaked speaks protocol \(Daemon.protocolVersion), not \(version)", closes: true)
        }
        sessions[request.connection]?.saidHello = true
        return HelloReply(version: Int64(Daemon.protocolVersion), uid: Int64(request.session.peer.uid)).fields
    }

    /// The explicit stop: the client, its subscriptions, regions (beacon ones too) and undelivered events are deleted.
    func unregister(_ request: Request) throws -> OperationOutcome {
        let client = try request.client()
        return .write(RequestWrite(changes: [.unregister(client)])) { [self] _ in
            beacons.subscriptions.removeAll(of: client)
            regions.removeAll(of: client, at: request.now)
            services.removeAll(of: client)
            sessions[request.connection]?.client = nil
            emit(.tell(.unregistered(client)))
            return [:]
        }
    }

    func register(_ request: Request) throws -> OperationOutcome {
        guard request.session.client == nil else { throw ProtocolError("alreadyRegistered", "this connection is already registered") }
        let registration = try ProtocolError.reading { () throws(RequestError) in try RegisterRequest(fields: request.fields) }
        let clientID = registration.client
        let launchedFor = registration.launchReason
        // Stored as given, for the launcher and for `status`.
        let launchJSON = registration.launch.map { String(decoding: JSONValue.array($0.map(JSONValue.string)).line, as: UTF8.self) }
        let optionsJSON = registration.options.map { String(decoding: JSONValue.object($0).line, as: UTF8.self) }
        let key = ClientKey(uid: request.session.peer.uid, clientID: clientID)
        if let registered = connection(of: key) {
            // What the registered connection sent before this request (its acks above all) is taken first: the
            // events it handled must not go to the process that replaces it.
            guard request.after == registered else { throw EarlierRequestsFirst(connection: registered) }
            // A hand-started process takes over from the daemon's background instance (brought to the foreground):
            // that one is ended, and what it had not acknowledged goes to the new connection.
            guard activation.takeOver(key) else {
                throw ProtocolError("clientBusy", "another connection is registered as \(clientID)")
            }
            sessions[registered]?.client = nil
            emit(.close(registered))
        } else if launchedFor == nil {
            // A launched instance that is not connected (stopped across a daemon restart before it reconnected, or
            // not yet connected) is ended too: the user's process is the client now, not a second one beside it.
            _ = activation.takeOver(key)
        }
        try activation.registering(key, gid: request.session.peer.gid, launch: registration.launch, options: registration.options)
        return .write(RequestWrite(changes: [.register(key, launch: launchJSON, options: optionsJSON)])) { [self] outcome in
            guard case .registered(let created, let pending, let lastSeq, let epoch) = outcome.answers.first else {
                throw ProtocolError("internal", "the store did not answer the registration")
            }
            sessions[request.connection]?.client = key
            emit(.tell(.connectionOpened(key, pid: request.session.peer.pid, launchedFor: launchedFor)))
            return ["client": .string(clientID), "created": .bool(created), "pending": .integer(pending), "lastSeq": .integer(lastSeq),
                    "epoch": .integer(epoch)]
        }
    }
}
