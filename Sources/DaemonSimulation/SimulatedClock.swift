import GeoWakeCore
import GeoWakeDaemon
import Synchronization

/// Time in the simulated world: a monotonic clock that only the schedule moves, and a wall clock that follows it
/// plus whatever steps the schedule makes (NTP, a user setting the date).
final class SimulatedClock: Sendable {
    private let state: Mutex<(monotonic: Double, wallOffset: Double)>

    init(wallAtStart: Timestamp) {
        state = Mutex((0, wallAtStart.secondsSince1970))
    }

    var monotonic: Double { state.withLock { $0.monotonic } }
    var wall: Timestamp { state.withLock { Timestamp(secondsSince1970: $0.monotonic + $0.wallOffset) } }

    func advance(by seconds: Double) { state.withLock { $0.monotonic += seconds } }

    func stepWall(by seconds: Double) { state.withLock { $0.wallOffset += seconds } }

    var daemonClock: DaemonClock {
        DaemonClock(monotonic: { [self] in monotonic }, wall: { [self] in wall })
    }
}
