import Glibc

/// Why a launch did not happen.
public enum LaunchError: Error, Equatable, CustomStringConvertible {
    case unknownUser(uid_t)
    case logFile(path: String, errno: Int32)
    case fork(errno: Int32)
    /// The child could not become the account or could not exec; `step` names which.
    case child(step: String, errno: Int32)

    public var description: String {
        switch self {
        case .unknownUser(let uid): return "launch: no user with uid \(uid)"
        case .logFile(let path, let code): return "launch: cannot open log file \(path): \(String(cString: strerror(code)))"
        case .fork(let code): return "launch: fork failed: \(String(cString: strerror(code)))"
        case .child(let step, let code): return "launch: \(step) failed in the child: \(String(cString: strerror(code)))"
        }
    }
}
