import GeoWakeCore
import GeoWakeProtocol

/// When a client's next background fetch is due, and how its results move that time: pure arithmetic on times
/// passed in, kept in the client's `AppRecord` (and so in the store, across daemon restarts).
///
/// The interval starts at the minimum the client asked for. `newData` sets it back to the minimum, `noData` doubles
/// it, `failed` (or no result before the fetch's budget or process ended) multiplies it by four, both up to
/// `maximumStretch` times the minimum. The next fetch is due one interval after the last one ended, so fetches
/// start at most once per minimum interval.
public struct BackgroundFetchSchedule: Hashable, Sendable, Codable {
    /// The client's minimum interval, seconds.
    public private(set) var minimumInterval: Double
    /// The current interval, between the minimum and `maximumStretch` times it.
    public private(set) var interval: Double
    /// When the next fetch may start.
    public private(set) var due: Timestamp
    /// When the fetch in progress runs out of time; nil while none runs.
    public private(set) var runsUntil: Timestamp?
    /// What the last fetch that ended found.
    public private(set) var lastResult: BackgroundFetchResult?
    /// How many fetches have started since the minimum was set.
    public private(set) var started = 0

    /// How far results can stretch the interval, as a multiple of the minimum.
    public static let maximumStretch = 16.0
    /// The accepted minimum intervals, seconds: a second (tests) to a week.
    public static let allowedMinimum = SetBackgroundFetchRequest.allowedMinimum

    /// A schedule whose first fetch is due `minimumInterval` after `now`.
    public init(minimumInterval: Double, at now: Timestamp) {
        self.minimumInterval = minimumInterval
        interval = minimumInterval
        due = now + minimumInterval
    }

    /// Another minimum: the interval starts again at it, the next fetch one minimum from `now`; a fetch running now
    /// keeps its time.
    public mutating func change(minimumInterval: Double, at now: Timestamp) {
        self.minimumInterval = minimumInterval
        interval = minimumInterval
        due = now + minimumInterval
        started = 0
    }

    /// Whether a fetch runs now.
    public var isRunning: Bool { runsUntil != nil }

    /// A fetch starts at `now` with `budget` seconds to report its result.
    public mutating func start(at now: Timestamp, budget: Double) {
        runsUntil = now + budget
        started += 1
    }

    /// The fetch in progress ended with `result` (`failed` when it ran out of time or its process ended first);
    /// the next one is due an interval, stretched or shrunk by the result, from `now`.
    public mutating func finish(_ result: BackgroundFetchResult, at now: Timestamp) {
        runsUntil = nil
        lastResult = result
        let cap = minimumInterval * Self.maximumStretch
        switch result {
        case .newData: interval = minimumInterval
        case .noData: interval = min(interval * 2, cap)
        case .failed: interval = min(interval * 4, cap)
        }
        due = now + interval
    }

    /// A fetch came due while the client could not be fetched (in the foreground, disabled, crash-looping,
    /// being terminated): that one is skipped, the next is due an unchanged interval later.
    public mutating func skip(at now: Timestamp) {
        due = now + interval
    }
}
