/// Why the daemon wants a client that is not connected: the kind of event it queued for it.
public enum LaunchReason: String, Sendable {
    case location, significantChange, region, visit, beacon, status
}

/// The hook for issue #14's launcher: the dispatcher calls it when an event is queued for a registered client
/// that has no connection, and when clients connect or disconnect. Called on the daemon's loop thread; keep it quick.
public protocol ClientActivation: AnyObject {
    func eventQueued(for client: ClientKey, reason: LaunchReason, launch: [String]?)
    func connectionOpened(_ client: ClientKey)
    func connectionClosed(_ client: ClientKey)
}

public final class NoClientActivation: ClientActivation {
    public init() {}
    public func eventQueued(for client: ClientKey, reason: LaunchReason, launch: [String]?) {}
    public func connectionOpened(_ client: ClientKey) {}
    public func connectionClosed(_ client: ClientKey) {}
}
