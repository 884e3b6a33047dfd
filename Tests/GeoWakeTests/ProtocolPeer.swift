#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import GeoWake
import Synchronization

/// The daemon's side of protocol v1 on a real Unix socket, scripted: hello, register, ack, and an outbox it
/// resends from the first unacknowledged event on every register, as docs/protocol.md promises. The library
/// tests run against it where the real geowaked is not needed to pin the library's own behaviour.
final class ProtocolPeer: Sendable {
    let path: String
    private let listener: Int32
    private struct State {
        var outbox: [(seq: Int64, epoch: Int64, event: String)] = []
        var epoch: Int64 = 1
        var acked: Int64 = 0
        var registers = 0
        var current: Int32 = -1
        var lastRegister: JSONValue?
        var openTasks: Set<Int> = []
        var nextTask = 1
        var fetchRequests: [JSONValue] = []
    }
    private let state = Mutex(State())

    init() throws {
        path = NSTemporaryDirectory() + "geowake-peer-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw GeoWakeError.connectionFailed(path: path, reason: "bind") }
        Thread { [self] in acceptLoop() }.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }

    var acked: Int64 { state.withLock { $0.acked } }
    var registers: Int { state.withLock { $0.registers } }
    var lastRegister: JSONValue? { state.withLock { $0.lastRegister } }
    var openTasks: Set<Int> { state.withLock { $0.openTasks } }
    /// The `setBackgroundFetch` and `completeBackgroundFetch` requests received, in order.
    var fetchRequests: [JSONValue] { state.withLock { $0.fetchRequests } }

    /// Sends a server message that is neither a reply nor an event (e.g. `expiring`).
    func notice(_ line: String) {
        let fd = state.withLock { $0.current }
        if fd >= 0 { send(fd, line) }
    }

    /// Queues an event and pushes it to the connected client, if any.
    func emit(_ event: String) {
        let (fd, line) = state.withLock { s -> (Int32, String) in
            let seq = Int64(s.outbox.count + 1)
            s.outbox.append((seq, s.epoch, event))
            return (s.current, Self.eventLine(seq, s.epoch, event))
        }
        if fd >= 0 { send(fd, line) }
    }

    /// Hangs up on the client, as a SIGKILLed daemon's kernel would.
    func dropConnection() {
        let fd = state.withLock { s in defer { s.current = -1 }; return s.current }
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// What a power cut does to a store whose last commits were not synced: the outbox and its acks roll back to
    /// the first `kept` events, and the restarted daemon runs in the next epoch.
    func powerCut(keeping kept: Int) {
        state.withLock { s in
            s.outbox.removeLast(s.outbox.count - kept)
            s.acked = min(s.acked, Int64(kept))
            s.epoch += 1
        }
        dropConnection()
    }

    private static func eventLine(_ seq: Int64, _ epoch: Int64, _ event: String) -> String {
        #"{"type":"event","epoch":\#(epoch),"seq":\#(seq),"event":\#(event)}"#
    }

    private func send(_ fd: Int32, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            Thread { [self] in serve(fd) }.start()
        }
    }

    private func serve(_ fd: Int32) {
        send(fd, #"{"type":"hello","protocol":1,"server":"peer"}"#)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            buffer += chunk[0..<n]
            while let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                guard let request = try? JSONValue(line: line), let op = request["op"]?.string else { continue }
                let id = String(decoding: (request["id"] ?? .null).line, as: UTF8.self)
                switch op {
                case "hello":
                    send(fd, #"{"type":"reply","id":\#(id),"ok":true,"result":{"protocol":1,"uid":\#(getuid())}}"#)
                case "register":
                    let backlog = state.withLock { s in
                        s.registers += 1
                        s.current = fd
                        s.lastRegister = request
                        return s.outbox.filter { $0.seq > s.acked }.map { Self.eventLine($0.seq, $0.epoch, $0.event) }
                    }
                    send(fd, #"{"type":"reply","id":\#(id),"ok":true,"result":{}}"#)
                    for event in backlog { send(fd, event) }
                case "ack":
                    var seq = request["seq"]?.int64 ?? 0
                    state.withLock { s in
                        // As geowaked: an earlier epoch's ack names only that epoch's events.
                        if let epoch = request["epoch"]?.int64, epoch < s.epoch {
                            let later = s.outbox.first { $0.epoch > epoch }?.seq ?? Int64.max
                            seq = min(seq, Int64(s.outbox.count), later - 1)
                        }
                        s.acked = max(s.acked, seq)
                    }
                    send(fd, #"{"type":"reply","id":\#(id),"ok":true,"result":{"acked":\#(seq)}}"#)
                case "beginBackgroundTask":
                    let task = state.withLock { s in defer { s.nextTask += 1 }; s.openTasks.insert(s.nextTask); return s.nextTask }
                    send(fd, #"{"type":"reply","id":\#(id),"ok":true,"result":{"task":\#(task),"budgetLeft":9.5}}"#)
                case "endBackgroundTask":
                    let task = request["task"]?.int ?? 0
                    _ = state.withLock { $0.openTasks.remove(task) }
                    send(fd, #"{"type":"reply","id":\#(id),"ok":true,"result":{}}"#)
                case "setBackgroundFetch", "completeBackgroundFetch":
                    // A fixed schedule: a minimum of 900 s, stretched to 1,800 s by a noData.
                    state.withLock { $0.fetchRequests.append(request) }
                    let schedule = op == "completeBackgroundFetch"
                        ? #"{"minimumInterval":900,"interval":1800,"nextIn":1800,"running":false,"fetches":1,"lastResult":"noData"}"#
                        : request["minimumInterval"] == .null ? "{}" : #"{"minimumInterval":900,"interval":900,"nextIn":900,"running":false,"fetches":0}"#
                    send(fd, #"{"type":"reply","id":\#(id),"ok":true,"result":\#(schedule)}"#)
                default:
                    send(fd, #"{"type":"reply","id":\#(id),"ok":false,"error":{"code":"unknownOp","message":"no \#(op)"}}"#)
                }
            }
        }
        close(fd)
    }
}
