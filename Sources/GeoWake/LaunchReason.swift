#if canImport(Glibc)
import Glibc
#endif

extension LaunchReason {
    /// Why the daemon started this process (`GEOWAKE_LAUNCH_REASON`); nil when the user started it.
    init?(environment: [String: String]) {
        guard let value = environment["GEOWAKE_LAUNCH_REASON"], !value.isEmpty else { return nil }
        self.init(rawValue: value)
    }
}

/// How the daemon may start this client again when one of its criteria is met and it is not running.
public enum Relaunch: Hashable, Sendable {
    /// Events reach this client only while it is connected; the daemon never starts it.
    case never
    /// The daemon launches this program with these arguments when an event (or a background fetch) comes while
    /// it is not running.
    case executable(String, arguments: [String] = [])

    /// The daemon takes only an absolute path (it launches from `/`), so a relative one such as
    /// `CommandLine.arguments[0]` of a program started as `.build/debug/x` is resolved here first.
    var launch: [String]? {
        guard case .executable(let path, let arguments) = self else { return nil }
        return [Self.absolute(path)] + arguments
    }

    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
