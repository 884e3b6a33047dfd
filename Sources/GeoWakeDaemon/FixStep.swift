import GeoWakeCore
import GeoWakeProtocol

/// What one fix decided, before anything is stored or sent: each client's events in order, the region states that
/// changed (with or without an event) and the services' memories to keep.
struct FixOutcome {
    var events: [ClientEvent] = []
    var regionChanges: [SharedRegions.Change] = []
    var memories: [ServiceMemory] = []
}

/// The state a fix moves: the source's health, every client's regions and services, and the last fix. `take` is the
/// daemon's step for a fix, `advance` for a region timer: they do no I/O and read no clock (the times are given), so
/// the same inputs give the same outcomes wherever they are taken. `DaemonCore` emits an outcome as a `StoreBatch`,
/// which the loop commits before its events go out.
struct FixStep {
    var health: SourceHealth
    var regions: SharedRegions
    var services = ClientServices()
    var lastFix: Fix?

    /// One fix through every client's regions and services. A fix too inaccurate to decide region states still
    /// reaches the services; `ended` (the trace's last fix) adds an `ended` status for every subscribed client.
    mutating func take(_ fix: Fix, at now: Timestamp, monotonic: Double, ended: Bool = false) -> FixOutcome {
        var outcome = FixOutcome()
        let (decides, change) = health.observe(fix, at: monotonic)
        if let change { outcome.events += statusEvents(change, at: now) }
        if decides { outcome.regionChanges = regions.update(with: fix, at: now) }
        outcome.events += EventLines.region(outcome.regionChanges)
        let (serviceEvents, memories) = services.update(with: fix, at: now)
        outcome.events += serviceEvents
        outcome.memories = memories
        if ended {
            for client in Set(outcome.events.map(\.client)).union(subscribedClients()).sorted() {
                outcome.events.append(ClientEvent(client: client, line: EventLines.status("ended", EventLines.traceEnded, at: now)))
            }
        }
        lastFix = fix
        return outcome
    }

    /// Debounced changes and dwells that fell due by `now` without a fix (a live source's timer, a trace's clock).
    mutating func advance(to now: Timestamp) -> FixOutcome {
        let changes = regions.advance(to: now)
        return FixOutcome(events: EventLines.region(changes), regionChanges: changes)
    }

    /// A health change as one `status` event for every client with a subscription or a region; it launches no one.
    func statusEvents(_ change: SourceHealth.Change, at time: Timestamp) -> [ClientEvent] {
        let event = EventLines.status(change.state, change.message, at: time)
        return subscribedClients().sorted().map { ClientEvent(client: $0, line: event) }
    }

    func subscribedClients() -> Set<ClientKey> {
        Set(services.byClient.keys).union(regions.owners)
    }
}
