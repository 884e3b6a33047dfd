import Foundation
import GeoWakeCore

/// The loop's side of the fix source, whatever its kind: each fix it has due goes through `process` (a trace's
/// with its position, in the same transaction), its state reports and the no-fix clock through `SourceHealth`, whose
/// changes reach subscribers as `status` events.
extension Daemon {
    func pumpSource() {
        guard let description = source?.description else { return }
        let checkedAt = clock.monotonic()
        for input in source?.take(now: checkedAt) ?? [] {
            switch input {
            case .fix(let fix, nil):
                process(fix, at: clock.monotonic())
            case .fix(let fix, let replayed?):
                process(fix, at: clock.monotonic(), ended: replayed.isLast) { transaction in
                    try transaction.setSourcePosition(replayed.position, of: description)
                }
                // Every client then subscribed was told with this fix's events.
                if replayed.isLast { for id in sessions.keys { sessions[id]?.toldTraceEnded = true } }
            case .state(let report):
                logger.info("source state", metadata: ["source": "\(description)", "state": "\(report)"])
                if let change = health.observe(report, at: clock.monotonic()) { announce(change) }
            }
        }
        if source?.state == .running, let change = health.check(at: checkedAt) { announce(change) }
        if let delay = regionDelay(), delay <= 0 {
            advanceRegions(to: clock.wall())
        }
    }

    /// Seconds until a debounced change or a dwell falls due, for a live source (a trace keeps its own time).
    func regionDelay() -> Double? {
        guard source?.isLive == true, let due = regions.nextDeadline else { return nil }
        return max(0, due.secondsSince1970 - clock.wall().secondsSince1970)
    }

    /// Fires what fell due by `now` without a fix, committed as a fix's outcome is.
    func advanceRegions(to now: Timestamp) {
        commit(step.advance(to: now), at: now)
    }

    /// Seconds until the loop must look at the source's health again.
    func healthDelay() -> Double? {
        source?.state == .running ? health.nextCheck(at: clock.monotonic()) : nil
    }

    /// What `status` shows as the source's state.
    var sourceStateDescription: String {
        guard let source, source.state == .running else { return source?.state.rawValue ?? "idle" }
        return health.state?.rawValue ?? (source.isLive ? "connecting" : "running")
    }

    private func announce(_ change: SourceHealth.Change) {
        logger.notice("source health", metadata: ["state": "\(change.state)", "message": "\(change.message)"])
        let events = step.statusEvents(change, at: clock.wall())
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
