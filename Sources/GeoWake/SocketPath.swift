#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon listens, in the protocol's order: `GEOWAKE_SOCKET` wins (the daemon sets it for
/// processes it launches); then the user daemon's socket under `$XDG_RUNTIME_DIR` (or `/tmp/geowake-UID`); then the system daemon's.
public enum SocketPath {
    /// The system daemon's socket (`geowaked --system`).
    public static let systemPath = "/run/geowake/geowaked.sock"

    /// The socket to connect to: `resolution(environment:)`'s path.
    public static func resolve(environment: [String: String] = currentEnvironment()) -> String {
        resolution(environment: environment).path
    }

    /// The socket `resolve` picks, and every path it looked at on the way, in order: what an error names when
    /// no daemon answers there.
    public static func resolution(environment: [String: String] = currentEnvironment()) -> (path: String, tried: [String]) {
        if let path = environment["GEOWAKE_SOCKET"], !path.isEmpty { return (path, [path]) }
        let user: String
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            user = runtime + "/geowake/geowaked.sock"
        } else {
            user = "/tmp/geowake-\(getuid())/geowaked.sock"
        }
        if access(user, F_OK) == 0 { return (user, [user]) }
        return (systemPath, [user, systemPath])
    }

    /// A failed connection to the resolved socket, told as the user needs it: when nothing listens there (no
    /// socket file, or a stale one), `.noDaemon` with every path tried; any other failure (no permission) as it is.
    public static func explain(_ error: GeoWakeError, tried: [String]) -> GeoWakeError {
        guard case .connectionFailed(_, let reason) = error,
              reason == String(cString: strerror(ENOENT)) || reason == String(cString: strerror(ECONNREFUSED))
        else { return error }
        return .noDaemon(tried: tried, reason: reason)
    }

    /// This process's environment, read from `environ`.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") {
                result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
