/// gpsd sends a TPV for an epoch each time one of its sentences arrives (GGA, then RMC...), every one
/// more complete than the last. Holding the latest until the time changes, or the line goes quiet,
/// turns them into one fix per epoch, as `geowake fixes` reports a log.
struct EpochCoalescer {
    private(set) var pending: Fix?

    /// Takes a TPV's fix; returns the previous epoch's fix once this one starts a new epoch.
    mutating func add(_ fix: Fix) -> Fix? {
        defer { pending = fix }
        guard let previous = pending, previous.time != fix.time else { return nil }
        return previous
    }

    /// The held fix, now: the epoch is over when nothing more came for a while.
    mutating func flush() -> Fix? {
        defer { pending = nil }
        return pending
    }
}
