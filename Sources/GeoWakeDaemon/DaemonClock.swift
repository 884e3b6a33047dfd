import Glibc
import GeoWakeCore

/// The daemon's two clocks, passed in rather than read: the monotonic one paces traces, health checks and each
/// connection's share of a turn; the wall clock stamps what has no fix time of its own. The system's for a real
/// daemon, a simulated one under `geowake-simulate`, so a run of the daemon's code is a function of its inputs.
public struct DaemonClock: Sendable {
    /// Seconds on a clock that never steps (CLOCK_MONOTONIC for a real daemon).
    public var monotonic: @Sendable () -> Double
    /// The time of day, which may step (NTP, a user setting the clock).
    public var wall: @Sendable () -> Timestamp

    public init(monotonic: @escaping @Sendable () -> Double, wall: @escaping @Sendable () -> Timestamp) {
        self.monotonic = monotonic
        self.wall = wall
    }

    public static let system = DaemonClock(
        monotonic: {
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        },
        wall: {
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            return Timestamp(secondsSince1970: Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9)
        })
}
