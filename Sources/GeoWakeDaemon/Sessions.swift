import GeoWakeCore
import GeoWakeProtocol

/// What the decisions about connections share: finding a client's connection, and sending to it.
extension DaemonCore {
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
