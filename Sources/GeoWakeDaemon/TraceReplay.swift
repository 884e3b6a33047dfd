import GeoWakeCore
import Traces

/// A trace replayed at `speed` times real time (0: as fast as the daemon consumes fixes): `FixSource`'s trace kind.
/// `position` is the index of the last processed fix; the daemon stores it with that fix's events, so a restart
/// resumes after it.
struct TraceReplay {
    let description: String
    let fixes: [Fix]
    let speed: Double
    var position = -1
    private var startedAt: Double?
    private var startPosition = 0

    init(path: String, speed: Double) throws {
        var fixes: [Fix] = []
        let statistics = try TraceFile.read(path) { fixes.append($0) }
        self.fixes = fixes.filter { $0.time != nil }
        // Replayed on the fixes' own clock, a trace without a dated fix would leave subscribers waiting in silence.
        if fixes.isEmpty { throw TraceError("nothing recognised: no fix; \(statistics.summary)", file: path) }
        if self.fixes.isEmpty { throw TraceError.withoutDates(file: path, fixes: fixes.count) }
        self.description = "trace:" + path
        self.speed = speed
    }

    var ended: Bool { position + 1 >= fixes.count }

    mutating func start(now: Double) {
        guard startedAt == nil else { return }
        startedAt = now
        startPosition = position + 1
    }

    mutating func pause() { startedAt = nil }

    /// While running: this fix time is due at this monotonic time (a beacon trace replays on the same clock).
    var origin: (time: Timestamp, clock: Double)? {
        guard let startedAt, startPosition < fixes.count else { return nil }
        return (fixes[startPosition].time!, startedAt)
    }

    /// Seconds until the next fix is due (0 when due now), nil when not running or ended.
    func delay(now: Double) -> Double? {
        ended ? nil : delay(until: nextTime, now: now)
    }

    /// The trace time of the next fix; call only while not ended.
    var nextTime: Timestamp { fixes[position + 1].time! }

    /// Seconds until the replay reaches the trace instant `time` (0 when it has), nil when not running.
    func delay(until time: Timestamp, now: Double) -> Double? {
        guard let startedAt else { return nil }
        guard speed > 0 else { return 0 }
        return max(0, startedAt + (time - fixes[startPosition].time!) / speed - now)
    }

    mutating func next() -> Fix {
        position += 1
        return fixes[position]
    }
}
