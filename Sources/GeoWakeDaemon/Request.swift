import GeoWakeCore
import GeoWakeProtocol
import RegionIndex

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
    /// For `monitor`: a draft of each of `featureTexts`, when the loop had the line read aside (`PreparedRequest`).
    var preparedDrafts: [FeatureDraft]?

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

/// What an operation decided: its reply, or writes for the loop to commit (`DaemonEffect.store`) and the reply once they
/// are, made by `then` from what the store did, with `alongside` the change to memory that need not wait for the
/// commit. Nothing it changes is answered before it is stored.
enum OperationOutcome {
    case reply([String: JSONValue])
    case write(RequestWrite, alongside: AlongsideWork? = nil, then: RequestWrite.Reply)
}

/// A request's change to the daemon's memory that does not depend on what its write does, so it is made while the
/// loop commits the write (`DaemonInput.storing`), or at the latest just before the request is answered, and undone
/// when the write fails: a `monitor`'s regions into the index, on one core while SQLite writes them on the other.
/// Nothing else is decided between the two, so a failed request leaves memory as it found it.
struct AlongsideWork {
    let make: () -> Void
    let undo: () -> Void
}

/// A request whose writes went out in a `store` effect, answered when the batch is (`DaemonCore.answer`).
struct AwaitingStore {
    let request: Request
    let operation: Operation
    var alongside: AlongsideWork?
    let then: RequestWrite.Reply
    /// `alongside` was made.
    var made = false
}

/// Thrown by an operation that can decide only after another connection's earlier requests (`register` taking over
/// a client): the request is given again once the loop took them.
struct EarlierRequestsFirst: Error {
    let connection: ConnectionID
}

extension DaemonCore {
    func handle(_ line: ArraySlice<UInt8>, on connection: ConnectionID, after earlier: ConnectionID?, prepared: PreparedRequest? = nil,
                at now: Timestamp) {
        guard let session = sessions[connection] else { return }
        let read = prepared?.read ?? RequestLine.read(line)
        let object = try? read.get()
        let op = object.flatMap { if case .string(let op) = $0.fields["op"] { op } else { nil } }
        if op == Operation.ack.rawValue, session.saidHello, let parsed = object {
            deferredAcks.append(Request(id: parsed.id, op: Operation.ack.rawValue, fields: parsed.fields, connection: connection, session: session,
                                        after: earlier, now: now))
            return
        }
        // Any other line, a malformed one too, is answered after the acks read before it: replies keep request order.
        if !deferredAcks.isEmpty {
            applyDeferredAcks()
            emit(.takeAgain(connection, request: Array(line), after: earlier))
            return
        }
        let parsed: RequestLine
        switch read {
        case .success(let object):
            parsed = object
        case .failure(let error):
            reply(connection, id: .null, .failure(ProtocolError("badJSON", RequestLine.failure(error))))
            return
        }
        guard let op else {
            reply(connection, id: parsed.id, .failure(.badRequest("\"op\" must be a string")))
            return
        }
        var request = Request(id: parsed.id, op: op, fields: parsed.fields, connection: connection, session: session, after: earlier, now: now)
        if op == Operation.monitor.rawValue {
            request.featureTexts = prepared?.featureTexts ?? parsed.featureTexts(line)
            request.preparedDrafts = prepared?.drafts
        }
        if op != Operation.hello.rawValue && !session.saidHello {
            reply(connection, id: parsed.id, .failure(ProtocolError("helloRequired", "send hello first")))
            return
        }
        guard let operation = Operation(rawValue: op) else {
            reply(connection, id: parsed.id, .failure(ProtocolError("unknownOp", "unknown op \"\(op)\"")))
            return
        }
        do {
            switch try perform(operation, request) {
            case .reply(let fields):
                finish(operation, request, .success(fields))
            case .write(let write, let alongside, let then):
                awaiting.append(AwaitingStore(request: request, operation: operation, alongside: alongside, then: then))
                store(StoreBatch(time: request.now, requests: [write]))
            }
        } catch let wait as EarlierRequestsFirst {
            emit(.takeEarlierRequests(of: wait.connection, thenAgain: connection, request: Array(line)))
        } catch {
            // Mapped as every other operation's failure is.
            finish(operation, request, Self.result { throw error })
        }
    }

    /// Answers the requests of a committed batch, in order: each finishes with what the store did, or fails with
    /// the store's refusal.
    func answer(_ outcomes: [Result<RequestWrite.Outcome, ProtocolError>]) {
        for outcome in outcomes {
            let waiting = awaiting.removeFirst()
            if let work = waiting.alongside {
                if !waiting.made { work.make() }
                if case .failure = outcome { work.undo() }
            }
            finish(waiting.operation, waiting.request, Self.result { try waiting.then(outcome.get()) })
        }
    }

    /// Whether one of the first `count` requests awaiting their commit (those of the batch the loop is about to commit)
    /// has a change to memory not made yet: the loop then commits on a second thread while `storing` makes it.
    func hasAlongsideWork(among count: Int) -> Bool {
        awaiting.prefix(count).contains { $0.alongside != nil && !$0.made }
    }

    /// Makes the changes to memory of the first `count` awaiting requests, in their order (`DaemonInput.storing`).
    func makeAlongsideWork(among count: Int) {
        for index in awaiting.indices.prefix(count) where !awaiting[index].made {
            guard let work = awaiting[index].alongside else { continue }
            work.make()
            awaiting[index].made = true
        }
    }

    /// The reply, then what follows it: a registered connection's outbox, a subscribing client's news of an ended trace.
    private func finish(_ operation: Operation, _ request: Request, _ result: Result<[String: JSONValue], ProtocolError>) {
        let connection = request.connection
        reply(connection, id: request.id, result)
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
}
