import GeoWakeProtocol
import ProcessLifecycle

/// The launcher's hook into the daemon (issue #14). The dispatcher tells it about every queued event, the session
/// ops about registrations and connections; the loop asks it for its next deadline and gives it a turn after each
/// poll. All calls come on the daemon's loop thread; keep them quick.
public protocol ClientActivation: AnyObject {
    /// Called once the daemon listens, before the first request: adopt what the store says and act on it.
    func start(_ daemon: Daemon)
    /// A registration is about to be stored; throwing refuses it (e.g. an unsafe launch command).
    func registering(_ client: ClientKey, gid: UInt32, launch: [String]?, options: [String: JSONValue]?) throws(ProtocolError)
    /// An event was queued for `client` (connected or not); `reason` is nil for events that must not launch it.
    func eventQueued(for client: ClientKey, reason: LaunchReason?)
    /// A connection registered as `client`; `launchedFor` is the launch reason the process says it was started with
    /// (nil: started by hand), `pid` its process.
    func connectionOpened(_ client: ClientKey, pid: Int32, launchedFor: LaunchReason?)
    func connectionClosed(_ client: ClientKey)
    /// A connection registers as a client whose launched instance is connected: true when that instance was a
    /// background one the daemon started, now being ended so that the new process takes over.
    func takeOver(_ client: ClientKey) -> Bool
    func disabled(_ client: ClientKey)
    func enabled(_ client: ClientKey)
    func unregistered(_ client: ClientKey)
    /// Seconds until something is due (a budget ends, a kill, a backoff), nil when nothing is.
    func secondsUntilDeadline() -> Double?
    /// After each poll: reap ended processes, fire what is due.
    func turn()
    /// A descriptor the loop polls for readability (woken when a child ends), or -1.
    var wakeDescriptor: Int32 { get }
    /// The client's app in `status` / `clients`; nil when the launcher does not know it.
    func status(of client: ClientKey) -> AppStatus?
    func beginBackgroundTask(_ client: ClientKey) throws(ProtocolError) -> [String: JSONValue]
    func endBackgroundTask(_ client: ClientKey, _ task: Int) throws(ProtocolError) -> [String: JSONValue]
    /// Background fetch: the minimum interval (nil stops it) and a fetch's result (`BackgroundFetchOperations.swift`).
    func setBackgroundFetch(_ client: ClientKey, minimumInterval: Double?) throws(ProtocolError) -> [String: JSONValue]
    func completeBackgroundFetch(_ client: ClientKey, _ result: BackgroundFetchResult) throws(ProtocolError) -> [String: JSONValue]
    /// The daemon is stopping: no process it stopped may stay stopped while it is away.
    func stopping()
}

extension ClientActivation {
    public func start(_ daemon: Daemon) {}
    public func registering(_ client: ClientKey, gid: UInt32, launch: [String]?, options: [String: JSONValue]?) throws(ProtocolError) {}
    public func disabled(_ client: ClientKey) {}
    public func enabled(_ client: ClientKey) {}
    public func unregistered(_ client: ClientKey) {}
    public func secondsUntilDeadline() -> Double? { nil }
    public func turn() {}
    public var wakeDescriptor: Int32 { -1 }
    public func status(of client: ClientKey) -> AppStatus? { nil }
    public func beginBackgroundTask(_ client: ClientKey) throws(ProtocolError) -> [String: JSONValue] {
        throw ProtocolError("unsupported", "this daemon does not manage background tasks")
    }
    public func endBackgroundTask(_ client: ClientKey, _ task: Int) throws(ProtocolError) -> [String: JSONValue] {
        throw ProtocolError("unsupported", "this daemon does not manage background tasks")
    }
    public func stopping() {}
}

/// For embedding the daemon without a launcher: nothing is ever launched, woken or suspended.
public final class NoClientActivation: ClientActivation {
    public init() {}
    public func eventQueued(for client: ClientKey, reason: LaunchReason?) {}
    public func connectionOpened(_ client: ClientKey, pid: Int32, launchedFor: LaunchReason?) {}
    public func connectionClosed(_ client: ClientKey) {}
    public func takeOver(_ client: ClientKey) -> Bool { false }
}
