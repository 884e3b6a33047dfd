import GeoWakeCore
import GeoWakeProtocol

/// One parsed request line and the connection it came on (its session as the request found it), with typed field
/// access that names the field on error.
struct Request {
    let id: RequestID
    let op: String
    var fields: [String: JSONValue]
    let connection: ConnectionID
    let session: Session
    /// The connection whose earlier requests were taken before this one (`DaemonEffect.takeEarlierRequests`).
    let after: ConnectionID?
    /// When the loop took the request: the time of what it changes that has no fix time of its own.
    let now: Timestamp
    /// For `monitor`: each feature's text as it came, in the order of the parsed features.
    var featureTexts: [String]?

    subscript(key: String) -> JSONValue? { fields[key] }

    func string(_ key: String) throws(ProtocolError) -> String {
        guard case .string(let value) = fields[key] else { throw .badRequest("\"\(key)\" must be a string") }
        return value
    }

    /// A whole number below 9×10^15, so exact as the double it was read as; a boolean is not one.
    func integer(_ key: String) throws(ProtocolError) -> Int64 {
        try ProtocolError.reading { () throws(RequestError) in try fields.integer(key) }
    }

    /// The request read as its protocol type, e.g. `request.typed(HelloRequest.init(fields:))`.
    func typed<Message>(_ read: ([String: JSONValue]) throws(RequestError) -> Message) throws(ProtocolError) -> Message {
        try ProtocolError.reading { () throws(RequestError) in try read(fields) }
    }

    func client() throws(ProtocolError) -> ClientKey {
        guard let client = session.client else { throw ProtocolError("notRegistered", "\(op) needs register first") }
        return client
    }
}

/// Thrown by an operation that can decide only after another connection's earlier requests (`register` taking over
/// a client): the request is given again once the loop took them.
struct EarlierRequestsFirst: Error {
    let connection: ConnectionID
}

extension DaemonCore {
    func handle(_ line: ArraySlice<UInt8>, on connection: ConnectionID, after earlier: ConnectionID?, at now: Timestamp) {
        guard let session = sessions[connection] else { return }
        guard let parsed = RequestLine(line) else {
            reply(connection, id: .null, .failure(ProtocolError("badJSON", "the line is not a JSON object")))
            return
        }
        guard case .string(let op) = parsed.fields["op"] else {
            reply(connection, id: parsed.id, .failure(.badRequest("\"op\" must be a string")))
            return
        }
        var request = Request(id: parsed.id, op: op, fields: parsed.fields, connection: connection, session: session, after: earlier, now: now)
        if op == Operation.monitor.rawValue { request.featureTexts = parsed.featureTexts(line) }
        guard let operation = Operation(rawValue: op) else {
            reply(connection, id: parsed.id, .failure(ProtocolError("unknownOp", "unknown op \"\(op)\"")))
            return
        }
        if operation != .hello && !session.saidHello {
            reply(connection, id: parsed.id, .failure(ProtocolError("helloRequired", "send hello first")))
            return
        }
        if operation == .ack {
            deferredAcks.append(request)
            return
        }
        applyDeferredAcks()
        let result: Result<[String: JSONValue], ProtocolError>
        do {
            result = .success(try perform(operation, request))
        } catch let wait as EarlierRequestsFirst {
            emit(.takeEarlierRequests(of: wait.connection, thenAgain: connection, request: Array(line)))
            return
        } catch {
            // Mapped as every other operation's failure is.
            result = Self.result { throw error }
        }
        reply(connection, id: parsed.id, result)
        if operation == .register, sessions[connection]?.client != nil { emit(.readOutbox(connection, fromStart: true)) }
        if case .success = result, operation.subscribes, let client = sessions[connection]?.client { subscribed(client, on: connection) }
    }

    /// An operation's outcome as its reply: a protocol error as itself, anything else as `internal`.
    static func result(_ body: () throws -> [String: JSONValue]) -> Result<[String: JSONValue], ProtocolError> {
        do {
            return .success(try body())
        } catch let error as ProtocolError {
            return .failure(error)
        } catch {
            return .failure(ProtocolError("internal", "\(error)"))
        }
    }

    /// Runs a request's store write, synced (see `DaemonStore.write`) unless it is an ack; a failure becomes an
    /// `internal` error reply and nothing is changed.
    func storeWrite<T>(synced: Bool = true, _ body: (StoreTransaction) throws -> T) throws(ProtocolError) -> T {
        do {
            return try store.write(synced: synced, body)
        } catch let error as ProtocolError {
            throw error
        } catch {
            logger.error("store write failed", metadata: ["error": "\(error)"])
            throw ProtocolError("internal", "the store could not be written: \(error)")
        }
    }
}
