import Foundation

/// A large request line being prepared on a worker. Its connection takes no other request until the loop has handed
/// this one in, so a connection's requests keep their order; the other connections' go on meanwhile.
final class LinePreparation: @unchecked Sendable {
    /// Lines from this many bytes (a `monitor` of some hundreds of features, milliseconds of reading) are prepared
    /// aside; a smaller one is read in its turn, as most requests are a few hundred bytes and a hand-over costs a
    /// thread's wake-up and a turn of the loop.
    static let from = 64 << 10

    let line: [UInt8]
    private let condition = NSCondition()
    private var result: PreparedRequest?

    /// Starts preparing `line`; once done, `wake` is signalled (the loop polls it).
    init(_ line: [UInt8], wake: WakePipe) {
        self.line = line
        DispatchQueue.global().async { [self] in
            let prepared = PreparedRequest(line[...])
            condition.lock()
            result = prepared
            condition.broadcast()
            condition.unlock()
            wake.signal()
        }
    }

    /// The prepared request, or nil while the worker is still at it.
    var ready: PreparedRequest? {
        condition.lock()
        defer { condition.unlock() }
        return result
    }

    /// Waits for the prepared request: for a connection whose requests the loop must take at once (a takeover, or its
    /// last requests before it closes).
    func wait() -> PreparedRequest {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}

/// A pipe a worker writes a byte to for the loop's poll to wake on. A class, closed when the last holder lets go: a
/// worker still preparing a line when the daemon goes must not write to a descriptor number reused meanwhile.
final class WakePipe: @unchecked Sendable {
    private var fds: [Int32] = [-1, -1]

    init() {
        pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        for fd in fds where fd >= 0 { close(fd) }
    }

    /// What the loop polls for input.
    var descriptor: Int32 { fds[0] }

    func signal() {
        var byte: UInt8 = 1
        _ = write(fds[1], &byte, 1)
    }

    /// Empties the pipe once the loop woke (a full pipe only drops signals, which say the same).
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(fds[0], $0.baseAddress, $0.count) }) > 0 {}
    }
}
