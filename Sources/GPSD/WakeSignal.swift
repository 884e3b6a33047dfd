#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A one-shot stop request that a worker blocked in poll() notices at once: a flag plus a self-pipe
/// whose read end sits in the worker's poll set.
final class WakeSignal: Sendable {
    private let raised = Atomic<Bool>(false)
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            fatalError("pipe failed: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// The descriptor to add to a poll set (POLLIN): readable once the signal is raised.
    var descriptor: Int32 { readEnd }

    var isRaised: Bool { raised.load(ordering: .acquiring) }

    func raise() {
        guard !raised.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Sleeps for `duration` unless raised first; returns whether it was raised.
    func wait(_ duration: Duration) -> Bool {
        var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + duration
        while !isRaised {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { break }
            _ = poll(&entry, 1, remaining.pollTimeout)
        }
        return isRaised
    }
}

extension Duration {
    /// Milliseconds for poll(), rounded up so a short positive wait does not become a busy zero.
    var pollTimeout: Int32 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
