#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon listens, in the protocol's order: `GEOWAKE_SOCKET` wins (the daemon sets it for
/// processes it launches); then the user daemon's socket under `$XDG_RUNTIME_DIR` (or `/tmp/geowake-UID`); then the system daemon's.
public enum SocketPath {
    public static let systemPath = "/run/geowake/geowaked.sock"

    public static func resolve(environment: [String: String] = currentEnvironment()) -> String {
        if let path = environment["GEOWAKE_SOCKET"], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            let user = runtime + "/geowake/geowaked.sock"
            if access(user, F_OK) == 0 { return user }
        } else {
            let user = "/tmp/geowake-\(getuid())/geowaked.sock"
            if access(user, F_OK) == 0 { return user }
        }
        return systemPath
    }

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
