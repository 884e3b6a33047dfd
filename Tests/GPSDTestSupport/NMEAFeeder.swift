#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// The far end of gpsd's `tcp://` source: serves NMEA lines, one every `delay`, to whoever connects
/// (gpsd connects only while a client watches). Successive connections continue where the last one
/// stopped, so a restarted gpsd picks the log up again instead of replaying it. The connection stays open
/// after the last line, since a closed source makes gpsd reconnect.
public final class NMEAFeeder: Sendable {
    private struct State {
        var nextLine = 0
        var connections = 0
        var stopped = false
    }

    public let port: Int
    private let listener: Int32
    private let lines: [[UInt8]]
    private let delay: Duration
    private let state = Mutex(State())

    /// Closes the connection after the last line and accepts no more: the device is unplugged for good.
    private let hangsUpAtEnd: Bool

    public init(lines: [[UInt8]], delay: Duration, hangsUpAtEnd: Bool = false) throws {
        (listener, port) = try boundLoopbackSocket(backlog: 4)
        self.lines = lines
        self.delay = delay
        self.hangsUpAtEnd = hangsUpAtEnd
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    public convenience init(contentsOf path: String, delay: Duration, hangsUpAtEnd: Bool = false) throws {
        try self.init(lines: splitLines(try readFile(path)), delay: delay, hangsUpAtEnd: hangsUpAtEnd)
    }

    deinit {
        stop()
    }

    public var connections: Int { state.withLock { $0.connections } }
    public var linesSent: Int { state.withLock { $0.nextLine } }
    public var finishedSending: Bool { linesSent == lines.count }

    public func stop() {
        let wasStopped = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        if !wasStopped {
            shutdown(listener, Int32(SHUT_RDWR))
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        while !isStopped {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            state.withLock { $0.connections += 1 }
            serve(connection)
            close(connection)
        }
        close(listener)
    }

    private func serve(_ connection: Int32) {
        var peer = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        while !isStopped {
            let index = state.withLock { $0.nextLine }
            if index == lines.count && hangsUpAtEnd {
                // A reset, as a read error on an unplugged device: gpsd keeps a feed that ends with a clean
                // EOF, waiting for more.
                var reset = linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
                stop()
                return
            }
            if index < lines.count {
                let sent = lines[index].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0 { return }
                state.withLock { $0.nextLine = index + 1 }
            }
            // Doubles as the pacing sleep and as the check for gpsd hanging up.
            let timeout = index < lines.count ? delay.pollMilliseconds : 50
            if poll(&peer, 1, timeout) > 0 {
                var scratch = [UInt8](repeating: 0, count: 256)
                if recv(connection, &scratch, scratch.count, 0) <= 0 { return }
            }
        }
    }
}

extension Duration {
    fileprivate var pollMilliseconds: Int32 {
        Int32(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}

public func readFile(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw TestFailure("cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return bytes
}

/// Lines with their terminators kept, so the receiver sees the log's own framing.
public func splitLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var start = 0
    for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
        lines.append(Array(bytes[start...i]))
        start = i + 1
    }
    if start < bytes.count { lines.append(Array(bytes[start...])) }
    return lines
}
