import Foundation
import GeoWakeCore
import JSONLines
import GeoWakeProtocol

/// Sources → services → outbox: one fix's events, its region states and the source position in one transaction.
extension Daemon {
    /// The source runs only while some enabled client has a subscription or a region.
    func updateDemand() {
        guard source != nil else { return }
        if !services.isEmpty || !regions.isEmpty {
            source!.start(now: clock.monotonic())
        } else {
            source!.stop()
        }
    }

    /// One fix taken by the `FixStep`, its outcome committed, and its events written to the connections caught up.
    func process(_ fix: Fix, at monotonic: Double, ended: Bool = false, write: (StoreTransaction) throws -> Void = { _ in }) {
        let now = fix.time ?? clock.wall()
        let outcome = step.take(fix, at: now, monotonic: monotonic, ended: ended)
        let computed = clock.monotonic()
        let (written, committed) = commit(outcome, at: now, write: write)
        carryOut()
        // The benchmark's marks for fix-to-handler latency, CLOCK_MONOTONIC seconds when the fix was taken, when its
        // events were computed, committed and sent, at `--log-level trace`; written after the sends, so the log write
        // is not on their way.
        logger.trace("fix", metadata: ["monotonic": "\(monotonic)", "computed": "\(computed)", "written": "\(written)", "committed": "\(committed)",
                                       "sent": "\(clock.monotonic())"])
    }

    /// Stores what a step decided and then sends its events: its region states, events and the services' memories, with
    /// whatever `write` adds, in one transaction. Returns when its writes were done and when they committed (the
    /// latency marks).
    @discardableResult
    func commit(_ outcome: FixOutcome, at now: Timestamp, write: (StoreTransaction) throws -> Void = { _ in }) -> (written: Double, committed: Double) {
        var written = 0.0
        var queued: [QueuedEvent] = []
        do {
            try store.write { transaction in
                try transaction.saveRegionStates(outcome.regionChanges)
                queued = try enqueue(transaction, outcome.events, now: now)
                for memory in outcome.memories { try transaction.save(memory) }
                try write(transaction)
                written = clock.monotonic()
            }
        } catch {
            queued = []
            logger.error("cannot store a step's events", metadata: ["error": "\(error)"])
        }
        let committed = clock.monotonic()
        notify(outcome.events, queued: queued)
        return (written, committed)
    }

    /// After the commit: what was queued goes to connected clients as it is (the loop writes it straight away to a
    /// caught-up connection, saving a read of the outbox on the way to the handler), other connected clients read
    /// the outbox, and the launcher hears of every client that got events (a connected one may be suspended, or on a
    /// budget the event extends).
    func notify(_ events: [(ClientKey, LaunchReason?, String)], queued: [QueuedEvent] = []) {
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
        for (client, reason, _) in events where reasons[client] ?? nil == nil { reasons[client] = reason }
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
        let now = lastFix?.time ?? source?.replay?.fixes.last?.time ?? Timestamp(secondsSince1970: 0)
        let events = [(client, LaunchReason?.none, EventLines.status("ended", EventLines.traceEnded, at: now))]
        var queued: [QueuedEvent] = []
        do {
            try store.write { transaction in queued = try enqueue(transaction, events, now: now) }
        } catch {
            logger.error("cannot store a status event", metadata: ["error": "\(error)"])
        }
        notify(events, queued: queued)
    }

}
