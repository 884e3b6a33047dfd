import Glibc

/// How a process ended, as `waitpid` reported it.
public enum ProcessExit: Hashable, Sendable, Codable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    init(waitStatus status: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        if status & 0x7f == 0 {
            self = .exited((status >> 8) & 0xff)
        } else {
            self = .signaled(status & 0x7f)
        }
    }

    /// Exit status 0; anything else counts as a crash.
    public var isClean: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let code): return "exited \(code)"
        case .signaled(let signal): return "killed by signal \(signal)"
        }
    }
}
