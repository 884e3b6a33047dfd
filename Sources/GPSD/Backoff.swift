/// Capped exponential backoff between reconnection attempts.
///
/// No jitter: a daemon has one connection to its local gpsd, so there is no herd of clients to spread out,
/// and deterministic delays keep the tests' timing predictable.
public struct Backoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration
    public var multiplier: Int
    private var attempts = 0

    /// The defaults retry quickly after a gpsd restart (a quarter second) and settle at one attempt
    /// every 30 s while gpsd or the device stays away, which costs nothing measurable.
    public init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(30), multiplier: Int = 2) {
        precondition(initial > .zero && maximum >= initial && multiplier >= 1,
                     "Backoff expects 0 < initial <= maximum and multiplier >= 1")
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
    }

    /// The delay before the next attempt; each call after the first multiplies it, up to `maximum`.
    public mutating func next() -> Duration {
        var delay = initial
        var step = 0
        while step < attempts && delay < maximum {
            delay *= multiplier
            step += 1
        }
        attempts += 1
        return min(delay, maximum)
    }

    /// Call once a connection has proved itself, so the next failure retries quickly again.
    public mutating func reset() {
        attempts = 0
    }
}
