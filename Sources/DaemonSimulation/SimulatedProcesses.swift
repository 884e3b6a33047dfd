import Glibc
import GeoWakeDaemon
import GeoWakeProtocol
import ProcessLifecycle

/// The simulated machine's process table, which the daemon's supervisor drives through `ProcessControl` as it
/// drives the system's: launches, SIGSTOP/SIGCONT, SIGTERM (a subscriber exits cleanly on it), SIGKILL, reaping.
/// The schedule kills processes behind the daemon's back, as a user's `kill -9` or the OOM killer would.
final class SimulatedProcesses: ProcessControl {
    enum State: Equatable {
        case running, stopped
        case dead(ProcessExit)
    }

    struct Process {
        var identity: ProcessIdentity
        var clientID: String
        /// Launched by the daemon (false: started by the user).
        var launched: Bool
        var reason: LaunchReason?
        var state: State = .running
        var reaped = false
    }

    private(set) var table: [pid_t: Process] = [:]
    private var nextPID: pid_t = 10_000
    /// Launches in order, for the digest of a run.
    private(set) var launches = 0
    /// Where a replayed seed tells what the daemon does to processes.
    var narrate: ((String) -> Void)?

    func validate(_ command: LaunchCommand, for uid: UInt32) throws(LaunchCommandError) {
        guard let path = command.arguments.first else { throw .noArguments }
        guard path.hasPrefix("/") else { throw .notAbsolute(path) }
    }

    func spawn(_ request: LaunchRequest) throws(LaunchError) -> ProcessIdentity {
        if MidTurnPowerCut.hasLanded { throw .fork(errno: EIO) }
        launches += 1
        narrate?("daemon launches \(request.command.arguments.last ?? "?") for \(request.reason?.rawValue ?? "no reason")")
        return start(clientID: request.command.arguments.last ?? "", launched: true, reason: request.reason)
    }

    /// A process the user starts by hand.
    func start(clientID: String, launched: Bool, reason: LaunchReason? = nil) -> ProcessIdentity {
        nextPID += 1
        let identity = ProcessIdentity(pid: nextPID, startTime: UInt64(nextPID))
        table[nextPID] = Process(identity: identity, clientID: clientID, launched: launched, reason: reason)
        return identity
    }

    func isAlive(_ process: ProcessIdentity) -> Bool {
        guard let entry = table[process.pid], entry.identity == process else { return false }
        if case .dead = entry.state { return false }
        return true
    }

    @discardableResult
    func send(_ signal: ProcessSignal, to process: ProcessIdentity) -> Bool {
        narrate?("daemon sends \(signal) to pid \(process.pid)\(isAlive(process) ? "" : ", which is gone")")
        guard isAlive(process) else { return false }
        if MidTurnPowerCut.hasLanded { return true }
        switch signal {
        case .suspend: table[process.pid]!.state = .stopped
        case .thaw: table[process.pid]!.state = .running
        case .terminate: table[process.pid]!.state = .dead(.exited(0))
        case .kill: table[process.pid]!.state = .dead(.signaled(SIGKILL))
        }
        return true
    }

    func reap(_ process: ProcessIdentity) -> ProcessExit? {
        guard let entry = table[process.pid], entry.identity == process, !entry.reaped,
              case .dead(let exit) = entry.state else { return nil }
        table[process.pid]!.reaped = true
        return exit
    }

    func identity(of pid: Int32) -> ProcessIdentity? {
        table[pid].flatMap { isAlive($0.identity) ? $0.identity : nil }
    }

    /// The process ends by itself with `status` (0: cleanly, as a command that never connects does).
    func exit(_ pid: pid_t, status: Int32) {
        guard let entry = table[pid], isAlive(entry.identity) else { return }
        table[pid]!.state = .dead(.exited(status))
    }

    /// The schedule's `kill -9`, or the machine going down.
    func kill(_ pid: pid_t) {
        guard let entry = table[pid], isAlive(entry.identity) else { return }
        table[pid]!.state = .dead(.signaled(SIGKILL))
    }

    func state(_ pid: pid_t) -> State? { table[pid]?.state }

    var living: [Process] {
        table.values.filter { isAlive($0.identity) }.sorted { $0.identity.pid < $1.identity.pid }
    }
}
