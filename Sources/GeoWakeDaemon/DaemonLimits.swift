/// Per-client limits that protect the daemon and other clients from one client.
public struct DaemonLimits: Sendable {
    /// Unacknowledged events one client may have; beyond it new events are dropped and counted.
    public var maximumPendingEvents: Int

    public init(maximumPendingEvents: Int = 100_000) {
        self.maximumPendingEvents = maximumPendingEvents
    }
}
