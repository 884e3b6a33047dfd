import GeoWakeProtocol
import Glibc

/// Everything needed to start one client process.
public struct LaunchRequest: Sendable {
    public var command: LaunchCommand
    /// Nil when the process is not started for an event (it then sees no `GEOWAKE_LAUNCH_REASON`).
    public var reason: LaunchReason?
    /// The daemon's socket, passed as `GEOWAKE_SOCKET`.
    public var socketPath: String
    /// Standard output and error go here, appended.
    public var logPath: String
    /// The account to become (system mode); nil runs the client as the daemon's own user (user mode).
    public var account: LaunchAccount?

    public init(command: LaunchCommand, reason: LaunchReason?, socketPath: String, logPath: String,
                account: LaunchAccount? = nil) {
        self.command = command
        self.reason = reason
        self.socketPath = socketPath
        self.logPath = logPath
        self.account = account
    }

    /// The PATH every client gets, whatever the daemon's own.
    public static let searchPath = "/usr/local/bin:/usr/bin:/bin"

    /// The whole environment of the child, nothing inherited but `LANG`: `GEOWAKE_LAUNCH_REASON` (when
    /// launched for an event), `GEOWAKE_SOCKET`, `PATH`, `HOME` and `USER` (of the account, or of the daemon's
    /// user), and `LANG` when the daemon has one.
    public func environment() -> [String] {
        var environment: [String] = []
        if let reason { environment.append("GEOWAKE_LAUNCH_REASON=\(reason.rawValue)") }
        environment.append("GEOWAKE_SOCKET=\(socketPath)")
        environment.append("PATH=\(Self.searchPath)")
        let user = account ?? (try? LaunchAccount.lookUp(uid: geteuid(), gid: getegid()))
        if let user {
            environment.append("HOME=\(user.home)")
            environment.append("USER=\(user.name)")
        }
        if let lang = getenv("LANG") { environment.append("LANG=\(String(cString: lang))") }
        return environment
    }
}
