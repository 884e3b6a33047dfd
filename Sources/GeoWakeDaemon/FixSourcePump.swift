import Foundation
import GeoWakeCore

/// The loop's side of the fix source, whatever its kind: it starts and stops the source by demand, hands each fix
/// and state report that is due to the decisions (`DaemonInput`), with the clocks read here, and fires region
/// deadlines on the wall clock for a live source.
extension Daemon {
    /// The source runs only while some enabled client has a subscription or a region.
    func updateDemand() {
        guard source != nil else { return }
        if !core.services.isEmpty || !core.regions.isEmpty {
            source!.start(now: clock.monotonic())
        } else {
            source!.stop()
        }
        core.source = source!.facts
    }

    func pumpSource() {
        guard let description = source?.description else { return }
        let checkedAt = clock.monotonic()
        let inputs = source?.take(now: checkedAt) ?? []
        core.source = source?.facts
        for input in inputs {
            switch input {
            case .fix(let fix, let replayed):
                feed(fix, replayed: replayed)
            case .state(let report):
                logger.info("source state", metadata: ["source": "\(description)", "state": "\(report)"])
                feed(.sourceState(report))
            }
        }
        if source?.state == .running { feed(.sourceCheck, monotonic: checkedAt) }
        if let delay = regionDelay(), delay <= 0 { feed(.regionDeadline) }
    }

    /// One fix decided, its batch committed and its events sent, with the benchmark's marks for fix-to-handler
    /// latency: CLOCK_MONOTONIC seconds when the fix was taken, when its events were computed, written, committed
    /// and sent, logged at `--log-level trace` after the sends, so the log write is not on their way.
    private func feed(_ fix: Fix, replayed: FixSource.Replayed?) {
        let taken = clock.monotonic()
        let effects = core.take(.fix(fix, replayed: replayed), at: clock.wall(), monotonic: taken)
        let computed = clock.monotonic()
        commitMarks = (computed, computed)
        carryOut(effects)
        logger.trace("fix", metadata: ["monotonic": "\(taken)", "computed": "\(computed)", "written": "\(commitMarks.written)",
                                       "committed": "\(commitMarks.committed)", "sent": "\(clock.monotonic())"])
    }

    /// Seconds until a debounced change or a dwell falls due, for a live source (a trace keeps its own time).
    func regionDelay() -> Double? {
        guard source?.isLive == true, let due = core.regions.nextDeadline else { return nil }
        return max(0, due.secondsSince1970 - clock.wall().secondsSince1970)
    }

    /// Seconds until the loop must look at the source's health again.
    func healthDelay() -> Double? {
        source?.state == .running ? core.health.nextCheck(at: clock.monotonic()) : nil
    }
}
