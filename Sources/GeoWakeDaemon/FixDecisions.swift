import GeoWakeCore
import GeoWakeProtocol

/// Sources → services → outbox, as decisions: a fix, a region timer or a change of the source's health becomes one
/// `StoreBatch`; once the loop committed it, `notify` sends what it queued.
extension DaemonCore {
    /// One fix through the `FixStep`; a trace's last fix tells every client then subscribed that the replay ended.
    func decide(_ fix: Fix, replayed: FixSource.Replayed?, at wall: Timestamp, monotonic: Double) {
        let now = fix.time ?? wall
        if let replayed, let source { unstoredTracePosition = (source.description, replayed.position) }
        store(StoreBatch(step.take(fix, at: now, monotonic: monotonic, ended: replayed?.isLast == true), at: now))
        if replayed?.isLast == true { for id in sessions.keys { sessions[id]?.toldTraceEnded = true } }
    }

    /// A health change as a `status` event for every client with a subscription or a region.
    func announce(_ change: SourceHealth.Change, at now: Timestamp) {
        logger.notice("source health", metadata: ["state": "\(change.state)", "message": "\(change.message)"])
        store(StoreBatch(time: now, events: step.statusEvents(change, at: now)))
    }

    /// After a commit: what was queued goes to connected clients as it is (the loop writes it straight away to a
    /// caught-up connection, saving a read of the outbox on the way to the handler), other connected clients read
    /// the outbox, and the launcher hears of every client that got events (a connected one may be suspended, or on a
    /// budget the event extends).
    func notify(_ events: [ClientEvent], queued: [QueuedEvent] = []) {
        // Most fixes make no event: no map of every session for them.
        guard !events.isEmpty else { return }
        var connectionOf: [ClientKey: ConnectionID] = [:]
        for (id, session) in sessions { if let client = session.client { connectionOf[client] = id } }
        let afterSync = store.syncPending
        var sent: Set<ClientKey> = []
        for event in queued {
            guard let connection = connectionOf[event.client] else { continue }
            emit(.event(connection, event, afterSync: afterSync))
            sent.insert(event.client)
        }
        // The launcher comes after every send: what it does (a launch, a budget) is not on the events' way.
        var reasons: [ClientKey: LaunchReason?] = [:]
        for event in events where reasons[event.client] ?? nil == nil { reasons[event.client] = event.launchReason }
        for (client, reason) in reasons.sorted(by: { $0.key < $1.key }) {
            if !sent.contains(client), let connection = connectionOf[client] { emit(.readOutbox(connection, fromStart: false)) }
            emit(.tell(.eventQueued(client, reason: reason)))
        }
    }

    /// A client that subscribes after the trace was replayed to its end (a subscriber started again, or a daemon
    /// restarted on a finished trace) hears so at once, once per connection, instead of waiting in silence.
    func subscribed(_ client: ClientKey, on connection: ConnectionID) {
        guard source?.state == .ended, sessions[connection]?.toldTraceEnded == false else { return }
        sessions[connection]?.toldTraceEnded = true
        let now = lastFix?.time ?? source?.lastFixTime ?? Timestamp(secondsSince1970: 0)
        store(StoreBatch(time: now, events: [ClientEvent(client: client, line: EventLines.status("ended", EventLines.traceEnded, at: now))]))
    }
}
