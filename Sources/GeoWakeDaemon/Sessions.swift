import GeoWakeCore
import GeoWakeProtocol

/// The decisions about connections: a connection's input goes in, the effects it has on any connection come out.
extension Daemon {
    /// Decides one connection input, taken at `now`, and returns what every decision emitted since the loop last
    /// carried effects out.
    func take(_ input: SessionInput, at now: Timestamp) -> [DaemonEffect] {
        switch input {
        case .opened(let id, let peer):
            sessions[id] = Session(peer: peer)
            emit(.send(id, ServerNotice.hello(protocol: Self.protocolVersion, server: "geowaked", version: Self.version).line, afterSync: false))
        case .request(let id, let line, let earlier):
            handle(line, on: id, after: earlier, at: now)
        case .lineTooLong(let id):
            reply(id, id: .null, .failure(ProtocolError("messageTooLarge", "a line exceeded \(Connection.maximumLine) bytes", closes: true)))
        case .closed(let id):
            if let client = sessions.removeValue(forKey: id)?.client { emit(.tell(.connectionClosed(client))) }
        }
        defer { effects = [] }
        return effects
    }

    func emit(_ effect: DaemonEffect) {
        effects.append(effect)
    }

    /// The connection registered as `client`, if one is.
    func connection(of client: ClientKey) -> ConnectionID? {
        sessions.first { $0.value.client == client }?.key
    }

    /// A line for `client`'s connection, if it has one.
    func send(_ line: [UInt8], to client: ClientKey) {
        if let id = connection(of: client) { emit(.send(id, line, afterSync: false)) }
    }

    /// A reply after a commit that waits for the turn's sync waits with it, and so does what follows it.
    func reply(_ connection: ConnectionID, id: RequestID, _ result: Result<[String: JSONValue], ProtocolError>) {
        emit(.send(connection, ReplyMessage.line(id: id.text, result.mapError { RequestError($0.code, $0.message) }), afterSync: store.syncPending))
        if case .failure(let error) = result, error.closes { emit(.closeAfterSending(connection)) }
    }
}
