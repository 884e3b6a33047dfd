/// A background fetch the daemon asked this process for, as iOS's `performFetchWithCompletionHandler`: fetch what
/// is new, then report it with `LocationManager.completeBackgroundFetch(_:)` within `budgetLeft` seconds.
public struct BackgroundFetch: Hashable, Sendable {
    /// Seconds of background time the fetch had left when the daemon asked; past them it counts as failed and the
    /// process is suspended.
    public let budgetLeft: Double

    /// Reads a `{"type":"fetch","budgetLeft":S}` message.
    init?(message: JSONValue) {
        guard case .fetch(let budgetLeft)? = ServerNotice(message: message) else { return nil }
        self.budgetLeft = budgetLeft
    }
}

/// A client's fetch schedule as the daemon keeps it (the `setBackgroundFetch` and `completeBackgroundFetch` replies).
public struct BackgroundFetchStatus: Hashable, Sendable {
    /// The minimum interval this client asked for, seconds.
    public let minimumInterval: Double
    /// The current interval, stretched by `noData` and `failed` results up to 16 times the minimum.
    public let interval: Double
    /// Seconds until the next fetch may start; nil while one runs.
    public let nextIn: Double?
    /// What the last fetch found; nil before the first ended.
    public let lastResult: BackgroundFetchResult?

    init?(_ result: JSONValue) {
        guard let reply = result.object.flatMap(BackgroundFetchReply.init(fields:)) else { return nil }
        (minimumInterval, interval, nextIn, lastResult) = (reply.minimumInterval, reply.interval, reply.nextIn, reply.lastResult)
    }
}

extension LocationManager {
    /// Asks the daemon to launch, or wake, this process for a background fetch at most once per `seconds` (1 s to a
    /// week), as iOS's `setMinimumBackgroundFetchInterval`; nil stops fetches. Each one arrives in
    /// `backgroundFetches` (a launched process has `launchReason == .fetch`). Results stretch the interval: `noData`
    /// doubles it, `failed` quadruples it, up to 16 times the minimum; `newData` sets it back (docs/protocol.md).
    /// Setting the same minimum again keeps the schedule, so a process may call this at every start.
    /// - Returns: the schedule, nil after stopping.
    /// - Throws: `GeoWakeError.rejected` with `badRequest` when the interval is out of range or this client has no
    ///   launch command (`relaunch: .never`): a fetch must be able to launch it.
    @discardableResult
    public func setMinimumBackgroundFetchInterval(_ seconds: Double?) async throws -> BackgroundFetchStatus? {
        let result = try await request("setBackgroundFetch", SetBackgroundFetchRequest(minimumInterval: seconds).fields)
        return BackgroundFetchStatus(result)
    }

    /// The fetches the daemon asks for, one consumer: complete each with `completeBackgroundFetch(_:)`.
    public var backgroundFetches: AsyncStream<BackgroundFetch> { fetches.stream }

    /// Reports what the fetch in progress found; the daemon then suspends this process unless events or background
    /// tasks keep it running, and schedules the next fetch by the result.
    /// - Throws: `GeoWakeError.rejected` with `noFetch` when no fetch is in progress (e.g. its time ran out).
    @discardableResult
    public func completeBackgroundFetch(_ result: BackgroundFetchResult) async throws -> BackgroundFetchStatus? {
        BackgroundFetchStatus(try await request("completeBackgroundFetch", CompleteBackgroundFetchRequest(result: result).fields))
    }
}
