#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A one-shot stop request that a worker blocked in poll() notices at once: a flag plus a self-pipe
/// whose read end sits in the worker's poll set. A process out of descriptors gets no pipe; the signal
/// then makes do with the flag alone (`descriptor` is -1, which poll() ignores), and workers look at it
/// every `longestWait` instead of stopping the whole program.
final class WakeSignal: Sendable {
    private let raised = Atomic<Bool>(false)
    private let readEnd: Int32
    private let writeEnd: Int32

    init(selfPipe: Bool = true) {
        var fds: [Int32] = [-1, -1]
        if !selfPipe || pipe(&fds) != 0 { fds = [-1, -1] }
        for fd in fds where fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// The descriptor to add to a poll set (POLLIN): readable once the signal is raised.
    var descriptor: Int32 { readEnd }

    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// How long a worker may block in poll() before looking at `isRaised` again: as long as it likes
    /// while the pipe wakes it, a moment without one.
    var longestWait: Duration { readEnd >= 0 ? .seconds(3600) : .milliseconds(50) }

    /// The poll() timeout for a worker that wants to sleep `duration` but must still notice a stop.
    func pollTimeout(_ duration: Duration) -> Int32 { min(duration, longestWait).pollTimeout }

    func raise() {
        guard !raised.exchange(true, ordering: .acquiringAndReleasing), writeEnd >= 0 else { return }
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
            _ = poll(&entry, 1, pollTimeout(remaining))
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
