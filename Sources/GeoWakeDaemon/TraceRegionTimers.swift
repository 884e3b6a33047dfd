import GeoWakeCore

/// A trace keeps its own time: a debounced change or a dwell that falls due between two fixes fires when the replay
/// reaches that instant (trace time scaled by `--speed`), stamped with it, before the next fix is fed, as a live
/// source's timer fires it on the wall clock.
extension Daemon {
    /// The next region deadline strictly before the trace's next fix (one at the fix's own instant is the fix's to
    /// decide). None before this run's first fix: a monitor fires nothing until it has a position.
    private var traceRegionDeadline: Timestamp? {
        guard let replay = source?.replay, !replay.ended, source?.state == .running, core.lastFix != nil,
              let due = core.regions.nextDeadline, due < replay.nextTime else { return nil }
        return due
    }

    func traceRegionDelay() -> Double? {
        traceRegionDeadline.flatMap { source?.replay?.delay(until: $0, now: clock.monotonic()) }
    }

    /// Fires, in order, every region deadline the replay has reached.
    func advanceTraceRegions() {
        while let due = traceRegionDeadline, let delay = source?.replay?.delay(until: due, now: clock.monotonic()), delay <= 0 {
            feed(.regionDeadline, at: due)
            guard core.regions.nextDeadline != due else { return }
        }
    }
}
