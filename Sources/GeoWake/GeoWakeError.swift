import GeoWakeProtocol

/// What a call into the daemon can fail with, each naming what and where.
public enum GeoWakeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The socket could not be reached (no daemon, wrong path, permission).
    case connectionFailed(path: String, reason: String)
    /// No daemon listens at any socket the library looked at (`SocketPath.resolution`): the paths, in order, and
    /// why the last one failed.
    case noDaemon(tried: [String], reason: String)
    /// The daemon answered a request with an error: its code (match `.duplicateRegion`, …) and message, as the
    /// protocol defines them.
    case rejected(request: String, code: ErrorCode, message: String)
    /// The daemon sent something the library cannot read.
    case malformedReply(String)
    /// No answer within the time given (the daemon hung or restarted and did not return).
    case timedOut(request: String, seconds: Double)
    /// The manager was stopped.
    case closed

    /// One line naming what failed and where, for a log or standard error.
    public var description: String {
        switch self {
        case .connectionFailed(let path, let reason): "cannot connect to geowaked at \(path): \(reason)"
        case .noDaemon(let tried, let reason):
            "no geowaked is running: tried \(tried.joined(separator: ", ")) (\(reason)); start your own with "
                + "`geowaked --source gpsd://localhost:2947` (its socket is $XDG_RUNTIME_DIR/geowake/geowaked.sock), "
                + "or `systemctl --user start geowaked` once installed, or set GEOWAKE_SOCKET to a running daemon's socket"
        case .rejected(let request, let code, let message): "geowaked refused \(request): \(code): \(message)"
        case .malformedReply(let detail): "unreadable message from geowaked: \(detail)"
        case .timedOut(let request, let seconds): "no answer from geowaked to \(request) within \(seconds) s"
        case .closed: "the location manager was stopped"
        }
    }
}
