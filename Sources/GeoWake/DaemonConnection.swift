import Foundation
import GeoWakeCore
import Synchronization
import GeoWakeProtocol

/// One session with geowaked: the hello, then requests matched to their replies by id, while a reader
/// thread hands every other server message (events today, whatever the protocol adds) to `onMessage`.
/// The CLI uses it alone; `LocationManager` wraps it with registration, acknowledgement and reconnection.
public final class DaemonConnection: Sendable {
    /// The socket this connection was opened on.
    public let path: String
    /// The peer uid the daemon read from the socket, from the hello's result.
    public var uid: Int { state.withLock { $0.uid } }

    private let socket: LineSocket
    private let state = Mutex(State())
    private let onMessage: @Sendable (JSONValue) -> Void
    private let onClose: @Sendable () -> Void

    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<ReplyMessage, any Error>] = [:]
        var closed = false
        var uid = -1
    }

    /// The protocol version this library speaks, sent in `hello`.
    public static let protocolVersion = 1

    /// Connects and says hello; `onMessage` receives every server message that is not a reply, on the
    /// reader thread, in arrival order; `onClose` runs once when the connection ends for any reason.
    public init(path: String = SocketPath.resolve(), timeout: Double = 10,
                onMessage: @escaping @Sendable (JSONValue) -> Void = { _ in },
                onClose: @escaping @Sendable () -> Void = {}) async throws {
        self.path = path
        socket = try LineSocket(connectingTo: path)
        self.onMessage = onMessage
        self.onClose = onClose
        startReader()
        var hello = HelloRequest(version: Int64(Self.protocolVersion)).fields
        hello["client"] = "GeoWake"
        let result = try await request("hello", hello, timeout: timeout)
        let uid = result.object.flatMap(HelloReply.init(fields:)).map { Int($0.uid) } ?? -1
        state.withLock { $0.uid = uid }
    }

    /// Sends `{"id":…,"op":op,…fields}` and returns the reply's `result`, or throws its error.
    public func request(_ op: String, _ fields: [String: JSONValue] = [:], timeout: Double = 10) async throws -> JSONValue {
        var message = fields
        message["op"] = .string(op)
        let id: Int = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        message["id"] = .number(Double(id))
        let line = JSONValue.object(message).line
        let socket = self.socket
        let timeoutTask = Task { [weak self] in
            try await Task.sleep(for: .seconds(timeout))
            self?.fail(id, GeoWakeError.timedOut(request: op, seconds: timeout))
        }
        defer { timeoutTask.cancel() }
        let reply: ReplyMessage = try await withCheckedThrowingContinuation { continuation in
            let closed = state.withLock { s in
                if !s.closed { s.waiting[id] = continuation }
                return s.closed
            }
            if closed {
                continuation.resume(throwing: GeoWakeError.connectionFailed(path: path, reason: "connection closed"))
            } else if !socket.send(line) {
                fail(id, GeoWakeError.connectionFailed(path: path, reason: "connection closed"))
            }
        }
        switch reply.outcome {
        case .success(let result): return result
        case .failure(let error): throw GeoWakeError.rejected(request: op, code: error.code, message: error.message)
        }
    }

    /// Sends a request without waiting for its reply (acknowledgements: the reply only confirms).
    public func post(_ op: String, _ fields: [String: JSONValue] = [:]) {
        var message = fields
        message["op"] = .string(op)
        message["id"] = .string("post")
        _ = socket.send(JSONValue.object(message).line)
    }

    /// Ends the session: requests still waiting fail with `connectionFailed`, and `onClose` runs.
    public func close() { socket.shutDown() }

    /// Whether the connection has ended (closed here, or by the daemon).
    public var isClosed: Bool { state.withLock { $0.closed } }

    private func fail(_ id: Int, _ error: any Error) {
        state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(throwing: error)
    }

    private func startReader() {
        // The thread keeps the connection alive until the socket ends (`close`, or the daemon hangs up).
        startWorkerThread { [self] in
            while let line = socket.receiveLine() {
                guard let message = try? JSONValue(line: line) else { continue }
                if let reply = ReplyMessage(message: message) {
                    guard let id = reply.id else { continue }
                    state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: reply)
                } else if case .hello? = ServerNotice(message: message) {
                    continue
                } else {
                    onMessage(message)
                }
            }
            let orphans = state.withLock { s in
                s.closed = true
                defer { s.waiting.removeAll() }
                return Array(s.waiting.values)
            }
            for continuation in orphans {
                continuation.resume(throwing: GeoWakeError.connectionFailed(path: path, reason: "connection closed"))
            }
            onClose()
        }
    }
}
