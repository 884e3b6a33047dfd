import Foundation

/// Where the socket and the store live: user mode under the XDG directories, system mode under /run and /var/lib.
public struct DaemonPaths: Sendable {
    public var socket: String
    public var state: String

    public static func standard(system: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> DaemonPaths {
        if system {
            return DaemonPaths(socket: "/run/geowake/geowaked.sock", state: "/var/lib/geowake/geowake.sqlite")
        }
        let runtime = environment["XDG_RUNTIME_DIR"].map { $0 + "/geowake" } ?? "/tmp/geowake-\(getuid())"
        let home = environment["HOME"] ?? "/tmp"
        let stateHome = environment["XDG_STATE_HOME"] ?? home + "/.local/state"
        return DaemonPaths(socket: runtime + "/geowaked.sock", state: stateHome + "/geowake/geowake.sqlite")
    }

    public init(socket: String, state: String) {
        self.socket = socket
        self.state = state
    }
}
