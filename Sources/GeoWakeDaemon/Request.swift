import Foundation
import GRDB

/// One parsed request line and the connection it came on, with typed field access that names the field on error.
struct Request {
    let id: Any?
    let op: String
    let fields: [String: Any]
    let connection: Connection
    /// For `monitor`: each feature's text as it came, in the order of the parsed features.
    var featureTexts: [String]?

    func string(_ key: String) throws(ProtocolError) -> String {
        guard let value = fields[key] as? String else { throw .badRequest("\"\(key)\" must be a string") }
        return value
    }

    func integer(_ key: String) throws(ProtocolError) -> Int64 {
        guard let number = jsonNumber(fields[key]), number.rounded() == number, abs(number) < 9e15 else {
            throw .badRequest("\"\(key)\" must be an integer")
        }
        return Int64(number)
    }

    func client() throws(ProtocolError) -> ClientKey {
        guard let client = connection.client else { throw ProtocolError("notRegistered", "\(op) needs register first") }
        return client
    }
}

extension Daemon {
    func handle(_ line: ArraySlice<UInt8>, on connection: Connection) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            reply(connection, id: nil, .failure(ProtocolError("badJSON", "the line is not a JSON object")))
            return
        }
        let id = object["id"].flatMap { $0 is NSNumber || $0 is String ? $0 : nil }
        guard let op = object["op"] as? String else {
            reply(connection, id: id, .failure(.badRequest("\"op\" must be a string")))
            return
        }
        var request = Request(id: id, op: op, fields: object, connection: connection)
        if op == Operation.monitor.rawValue { request.featureTexts = FeatureTexts.ofRequest(Array(line)) }
        guard let operation = Operation(rawValue: op) else {
            reply(connection, id: id, .failure(ProtocolError("unknownOp", "unknown op \"\(op)\"")))
            return
        }
        if operation != .hello && !connection.saidHello {
            reply(connection, id: id, .failure(ProtocolError("helloRequired", "send hello first")))
            return
        }
        if operation == .ack {
            deferredAcks.append(request)
            return
        }
        applyDeferredAcks()
        let result = Self.result { try perform(operation, request) }
        reply(connection, id: id, result)
        if operation == .register, connection.client != nil { connection.outboxMayHaveMore = true }
        if case .success = result, operation.subscribes, let client = connection.client { subscribed(client, on: connection) }
    }

    /// An operation's outcome as its reply: a protocol error as itself, anything else as `internal`.
    static func result(_ body: () throws -> [String: Any]) -> Result<[String: Any], ProtocolError> {
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
    func storeWrite<T>(synced: Bool = true, _ body: (GRDB.Database) throws -> T) throws(ProtocolError) -> T {
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

/// A JSON number that is not a boolean (Foundation hands both over as NSNumber; booleans have objCType "c").
func jsonNumber(_ value: Any?) -> Double? {
    guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
    return number.doubleValue
}
