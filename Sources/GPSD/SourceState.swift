/// What a live source is doing, reported through its state hook once per change.
public enum SourceState: Equatable, Sendable, CustomStringConvertible {
    /// No consumer needs fixes: the receiver is not watched, so gpsd (or the tty) can rest.
    case idle
    case connecting
    /// Connected and watching; no report from the receiver yet.
    case watching
    /// The receiver reports, but without a position (mode 1: no satellites, antenna unplugged...).
    case noFix
    case fixing
    /// Connected, but no report: gpsd lost the device, or nothing came for a while (no device, or a
    /// connection that died without closing).
    case silent
    /// Not connected; retrying with backoff. The reason is the last failure.
    case unavailable(String)

    public var description: String {
        switch self {
        case .idle: "idle"
        case .connecting: "connecting"
        case .watching: "watching"
        case .noFix: "no fix"
        case .fixing: "fixing"
        case .silent: "silent"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }
}

/// Called by a source on each state change, from the source's own thread; the daemon plugs its logger in here.
public typealias SourceStateHandler = @Sendable (SourceState) -> Void
