import Glibc
import ProcessLifecycle

/// What the supervisor does to processes, and nothing else: spawn, signal, reap, look. `AppLifecycle` decides,
/// the supervisor keeps the books, and this carries it out — on the system's processes for a real daemon, on a
/// simulated process table under `geowake-simulate`, where subscriber kills and exits are scheduled by a seed.
public protocol ProcessControl: AnyObject {
    /// Checks the command as the launcher would before running it for `uid`; throws what is unsafe about it.
    func validate(_ command: LaunchCommand, for uid: UInt32) throws(LaunchCommandError)
    func spawn(_ request: LaunchRequest) throws(LaunchError) -> ProcessIdentity
    /// Alive and not yet reaped.
    func isAlive(_ process: ProcessIdentity) -> Bool
    /// Signals the process's group, only if this very process still exists.
    @discardableResult
    func send(_ signal: ProcessSignal, to process: ProcessIdentity) -> Bool
    /// How the process ended, once it has (never blocks); nil while it runs or when it is not our child.
    func reap(_ process: ProcessIdentity) -> ProcessExit?
    /// The live process `pid`, nil when there is none.
    func identity(of pid: Int32) -> ProcessIdentity?
}

/// The signals the supervisor sends: `terminate` is SIGTERM then SIGCONT, so a stopped group can act on it.
public enum ProcessSignal: Sendable {
    case suspend, thaw, terminate, kill
}

/// The system's processes: fork/exec through `Launcher`, group signals and `waitpid` through `ProcessIdentity`.
public final class SystemProcessControl: ProcessControl {
    public init() {}

    public func validate(_ command: LaunchCommand, for uid: UInt32) throws(LaunchCommandError) {
        try command.validate(for: uid)
    }

    public func spawn(_ request: LaunchRequest) throws(LaunchError) -> ProcessIdentity {
        try Launcher.spawn(request)
    }

    public func isAlive(_ process: ProcessIdentity) -> Bool { process.isAlive }

    @discardableResult
    public func send(_ signal: ProcessSignal, to process: ProcessIdentity) -> Bool {
        switch signal {
        case .suspend: process.suspend()
        case .thaw: process.thaw()
        case .terminate: process.terminate()
        case .kill: process.kill()
        }
    }

    public func reap(_ process: ProcessIdentity) -> ProcessExit? { process.reap() }

    public func identity(of pid: Int32) -> ProcessIdentity? { ProcessIdentity.of(pid) }
}
