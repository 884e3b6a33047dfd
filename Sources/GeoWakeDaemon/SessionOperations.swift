import GeoWakeCore
import GRDB
import GeoWakeProtocol

/// hello, register, unregister, ack.
extension Daemon {
    static let maximumClientsPerUID = 1000

    func hello(_ request: Request) throws -> [String: JSONValue] {
        guard !request.connection.saidHello else { throw ProtocolError.badRequest("hello was already sent") }
        let version = try request.integer("protocol")
        guard version == Int64(Self.protocolVersion) else {
            throw ProtocolError("protocolMismatch", "geowaked speaks protocol \(Self.protocolVersion), not \(version)", closes: true)
        }
        request.connection.saidHello = true
        return ["protocol": .integer(Self.protocolVersion), "uid": .integer(request.connection.uid)]
    }

    /// The explicit stop: the client, its subscriptions, regions (beacon ones too) and undelivered events are deleted.
    func unregister(_ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        try forgetBeacons(of: client)
        try storeWrite { db in
            for table in ["outbox", "region", "subscription", "client"] {
                try db.cachedStatement(sql: "DELETE FROM \(table) WHERE uid = ? AND clientID = ?").execute(arguments: [client.uid, client.clientID])
            }
        }
        regions.removeAll(of: client, at: clock.wall())
        services.removeAll(of: client)
        request.connection.client = nil
        activation.unregistered(client)
        return [:]
    }

    func ack(_ request: Request) throws -> [String: JSONValue] {
        try storeWrite(synced: false) { db in try acknowledge(request, db) }
    }

    func register(_ request: Request) throws(ProtocolError) -> [String: JSONValue] {
        guard request.connection.client == nil else { throw ProtocolError("alreadyRegistered", "this connection is already registered") }
        let registration = try ProtocolError.reading { () throws(RequestError) in try RegisterRequest(fields: request.fields) }
        let clientID = registration.client
        let launchedFor = registration.launchReason
        // Stored as given, for the launcher and for `status`.
        let launchJSON = registration.launch.map { String(decoding: JSONValue.array($0.map(JSONValue.string)).line, as: UTF8.self) }
        let optionsJSON = registration.options.map { String(decoding: JSONValue.object($0).line, as: UTF8.self) }
        let key = ClientKey(uid: request.connection.uid, clientID: clientID)
        if let registered = connection(for: key) {
            // What the registered connection sent before this request (its acks above all) is taken first: the
            // events it handled must not go to the process that replaces it.
            takeWaitingRequests(of: registered)
            // A hand-started process takes over from the daemon's background instance (brought to the foreground):
            // that one is ended, and what it had not acknowledged goes to the new connection.
            guard activation.takeOver(key) else {
                throw ProtocolError("clientBusy", "another connection is registered as \(clientID)")
            }
            registered.client = nil
            registered.closed = true
        } else if launchedFor == nil {
            // A launched instance that is not connected (stopped across a daemon restart before it reconnected, or
            // not yet connected) is ended too: the user's process is the client now, not a second one beside it.
            _ = activation.takeOver(key)
        }
        try activation.registering(key, gid: request.connection.gid, launch: registration.launch, options: registration.options)
        let result: [String: JSONValue] = try storeWrite { db in
            let existing = try Row.fetchOne(db.cachedStatement(sql: "SELECT disabled, lastSeq FROM client WHERE uid = ? AND clientID = ?"),
                                            arguments: [key.uid, key.clientID])
            if let existing {
                guard !(existing["disabled"] as Bool) else { throw ProtocolError("clientDisabled", "\(clientID) is disabled") }
                if let launchJSON {
                    try db.cachedStatement(sql: "UPDATE client SET launch = ? WHERE uid = ? AND clientID = ?").execute(arguments: [launchJSON, key.uid, key.clientID])
                }
                if let optionsJSON {
                    try db.cachedStatement(sql: "UPDATE client SET options = ? WHERE uid = ? AND clientID = ?").execute(arguments: [optionsJSON, key.uid, key.clientID])
                }
            } else {
                let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM client WHERE uid = ?"), arguments: [key.uid]) ?? 0
                guard count < Self.maximumClientsPerUID else {
                    throw ProtocolError("tooManyClients", "uid \(key.uid) has \(Self.maximumClientsPerUID) clients already")
                }
                try db.cachedStatement(sql: "INSERT INTO client (uid, clientID, launch, options) VALUES (?, ?, ?, ?)").execute(
                               arguments: [key.uid, key.clientID, launchJSON, optionsJSON])
            }
            return ["client": .string(clientID), "created": .bool(existing == nil), "pending": .integer(try store.pendingCount(db, key)),
                    "lastSeq": .integer(existing.map { $0["lastSeq"] as Int64 } ?? 0), "epoch": .integer(store.epoch)]
        }
        request.connection.client = key
        request.connection.deliveredThrough = 0
        activation.connectionOpened(key, pid: request.connection.pid, launchedFor: launchedFor)
        return result
    }
}
