import GeoWakeCore

/// gpsd sends a TPV for an epoch each time one of its sentences arrives (GGA, then RMC...), every one
/// more complete than the last. Holding the latest until the time changes, or the line goes quiet,
/// turns them into one fix per epoch, as `geowake fixes` reports a log.
struct EpochCoalescer {
    private(set) var pending: Fix?
    /// The time of the last fix handed out: a late report of an epoch already flushed (the line went
    /// quiet mid-epoch on a loaded machine) must not become a second fix for that time.
    private var lastEmitted: Timestamp?

    /// Takes a TPV's fix; returns the previous epoch's fix once this one starts a new epoch.
    mutating func add(_ fix: Fix) -> Fix? {
        if let time = fix.time, let lastEmitted, time <= lastEmitted { return nil }
        defer { pending = fix }
        guard let previous = pending, previous.time != fix.time else { return nil }
        return emit(previous)
    }

    /// The held fix, now: the epoch is over when nothing more came for a while.
    mutating func flush() -> Fix? {
        defer { pending = nil }
        return pending.map { emit($0) }
    }

    private mutating func emit(_ fix: Fix) -> Fix {
        if let time = fix.time { lastEmitted = time }
        return fix
    }
}
