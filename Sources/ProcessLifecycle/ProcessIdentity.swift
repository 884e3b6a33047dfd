import Glibc

/// One process the daemon launched: its pid and the start time the kernel gave it, so that a pid the
/// kernel has since handed to another process is never signalled (the daemon may have been restarted
/// and lost its child, or the child was reaped by someone else).
///
/// A launched process leads its own session and process group (its pgid is its pid), so the group signals
/// reach whatever it forked too.
public struct ProcessIdentity: Hashable, Sendable, Codable {
    public var pid: pid_t
    public var startTime: UInt64

    public init(pid: pid_t, startTime: UInt64) {
        self.pid = pid
        self.startTime = startTime
    }

    /// The identity of the live process `pid`, nil when there is none.
    public static func of(_ pid: pid_t) -> ProcessIdentity? {
        ProcessStat.read(pid).map { ProcessIdentity(pid: pid, startTime: $0.startTime) }
    }

    /// The process's current state, nil when this process is gone (even if its pid was reused).
    public var stat: ProcessStat? {
        guard let stat = ProcessStat.read(pid), stat.startTime == startTime else { return nil }
        return stat
    }

    /// Alive and not yet reaped (a zombie counts as gone).
    public var isAlive: Bool { stat.map { $0.state != "Z" } ?? false }

    public var isStopped: Bool { stat?.state == "T" }

    /// Sends `signal` to the whole process group, only if this very process still exists; false otherwise.
    @discardableResult
    public func signalGroup(_ signal: Int32) -> Bool {
        guard stat != nil else { return false }
        return Glibc.kill(-pid, signal) == 0
    }

    /// Stops the whole group (SIGSTOP cannot be caught or ignored).
    @discardableResult
    public func suspend() -> Bool { signalGroup(SIGSTOP) }

    @discardableResult
    public func thaw() -> Bool { signalGroup(SIGCONT) }

    /// The polite half of termination: SIGTERM, then SIGCONT so that a stopped group can act on it.
    /// The caller sends `kill()` after its grace period if the process is still there.
    @discardableResult
    public func terminate() -> Bool {
        let sent = signalGroup(SIGTERM)
        signalGroup(SIGCONT)
        return sent
    }

    @discardableResult
    public func kill() -> Bool { signalGroup(SIGKILL) }

    /// Reaps the process if it has ended (never blocks); only the daemon that spawned it can.
    public func reap() -> ProcessExit? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return ProcessExit(waitStatus: status)
    }
}
