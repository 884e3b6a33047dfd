import Foundation
import GeoWakeCore

/// The loop's side of a live source: its fixes go through `process`, its state reports and the no-fix clock
/// through `SourceHealth`, whose changes reach subscribers as `status` events.
extension Daemon {
    func pumpLiveSource() {
        let checkedAt = clock.monotonic()
        if let live {
            for item in live.take() {
                switch item {
                case .fix(let fix):
                    process(fix, at: clock.monotonic())
                case .state(let report):
                    logger.info("source state", metadata: ["source": "\(live.description)", "state": "\(report)"])
                    if let change = health.observe(report, at: clock.monotonic()) { announce(change) }
                }
            }
        }
        if sourceState == "running", let change = health.check(at: checkedAt) { announce(change) }
        if live != nil, let delay = regionDelay(), delay <= 0 {
            advanceRegions(to: clock.wall())
        }
    }

    /// Seconds until a debounced change or a dwell falls due, for a live source (a trace keeps its own time).
    func regionDelay() -> Double? {
        guard live != nil, let due = regions.nextDeadline else { return nil }
        return max(0, due.secondsSince1970 - clock.wall().secondsSince1970)
    }

    /// Fires what fell due by `now` without a fix, stored and queued like a fix's region events.
    func advanceRegions(to now: Timestamp) {
        let changes = regions.advance(to: now)
        let events = Self.regionEvents(changes)
        do {
            try store.write { transaction in
                try transaction.saveRegionStates(changes)
                try enqueue(transaction, events, now: now)
            }
        } catch {
            logger.error("cannot store region events", metadata: ["error": "\(error)"])
        }
        notify(events)
    }

    /// Seconds until the loop must look at the source's health again.
    func healthDelay() -> Double? {
        sourceState == "running" ? health.nextCheck(at: clock.monotonic()) : nil
    }

    /// What `status` shows as the source's state.
    var sourceStateDescription: String {
        guard sourceState == "running" else { return sourceState }
        return health.state?.rawValue ?? (live == nil ? "running" : "connecting")
    }

    private func announce(_ change: SourceHealth.Change) {
        logger.notice("source health", metadata: ["state": "\(change.state)", "message": "\(change.message)"])
        let events = statusEvents(change, at: clock.wall())
        guard !events.isEmpty else { return }
        do {
            try store.write { transaction in
                try enqueue(transaction, events, now: clock.wall())
            }
        } catch {
            logger.error("cannot store a status event", metadata: ["error": "\(error)"])
        }
        notify(events)
    }
}
