import CSimulatedDisk
import Glibc
import Synchronization

/// A power cut that lands at one of the store's writes, inside a daemon turn: between a commit and its sync, or
/// between a sync and the reply it releases. What survives on disk is decided at that instant
/// (`SimulatedDisk.powerCut`), and so is what the subscribers can have received: the bytes in their sockets then.
/// Whatever the daemon does after it in that turn (more writes, lines, launches, signals) never happened.
enum MidTurnPowerCut {
    struct Landed: Sendable {
        var files: SimulatedDisk.Files
        /// Per subscriber process, the bytes waiting in its socket when the power went.
        var received: [pid_t: Int]
    }

    private struct Armed: Sendable {
        var store: String
        var pick: UInt64
        var sockets: [pid_t: Int32] = [:]
    }

    private static let armed = Mutex<Armed?>(nil)
    private static let landed = Mutex<Landed?>(nil)

    /// The power goes just before the store's `write`-th write from now; `pick` chooses what of the unsynced
    /// commits survives.
    static func arm(atWrite write: Int, store: String, pick: UInt64) {
        armed.withLock { $0 = Armed(store: store, pick: pick) }
        landed.withLock { $0 = nil }
        simulated_disk_cut_at_write(Int32(write)) { MidTurnPowerCut.land() }
    }

    /// The subscribers' sockets, as a turn begins.
    static func watch(_ sockets: [pid_t: Int32]) {
        armed.withLock { $0?.sockets = sockets }
    }

    /// Whether the power is out: a process operation the daemon attempts now never happens.
    static var hasLanded: Bool { landed.withLock { $0 != nil } }

    /// Disarms; what landed, if it did.
    static func disarm() -> Landed? {
        simulated_disk_cut_at_write(0, nil)
        armed.withLock { $0 = nil }
        return landed.withLock { landed in
            defer { landed = nil }
            return landed
        }
    }

    private static func land() {
        guard let armed = armed.withLock({ $0 }) else { return }
        let files = SimulatedDisk.powerCut(store: armed.store) { Int(armed.pick % UInt64($0)) }
        var received: [pid_t: Int] = [:]
        for (pid, fd) in armed.sockets {
            var bytes: Int32 = 0
            if withUnsafeMutablePointer(to: &bytes, { ioctl(fd, UInt(FIONREAD), $0) }) == 0 { received[pid] = Int(bytes) }
        }
        landed.withLock { $0 = Landed(files: files, received: received) }
    }
}
