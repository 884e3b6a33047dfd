import GeoWakeCore
@testable import GeoWakeDaemon
import Testing

/// The daemon's one way of driving a source, on a trace: started and stopped by demand, its fixes handed over one a
/// turn when their time comes, each with the position stored beside its events, the last one ending it.
@Suite struct FixSourceTests {
    static let trace = DaemonProcess.root + "/traces/berlin-drive-start.gpsd.json"

    /// The fix `take` hands over at `now`, with where it is in the trace; nil when none is due.
    static func taken(_ source: inout FixSource, at now: Double) -> (fix: Fix, replayed: FixSource.Replayed)? {
        let inputs = source.take(now: now)
        #expect(inputs.count <= 1, "one fix a turn")
        guard case .fix(let fix, let replayed?)? = inputs.first else { return nil }
        return (fix, replayed)
    }

    @Test func aTraceGivesNothingUntilStartedThenEachFixAtItsTimeWithItsPosition() throws {
        var source = try FixSource(trace: Self.trace, speed: 1)
        source.resume(after: -1)
        let fixes = try #require(source.replay?.fixes)
        #expect(source.state == .idle && !source.isLive && source.wakeDescriptor == nil)
        #expect(Self.taken(&source, at: 1_000) == nil, "no demand, no fix")

        source.start(now: 100)
        #expect(source.state == .running)
        let first = try #require(Self.taken(&source, at: 100))
        #expect(first.fix == fixes[0] && first.replayed == FixSource.Replayed(position: 0, isLast: false))
        let gap = try #require(fixes[1].time) - (try #require(fixes[0].time))
        #expect(gap > 0)
        #expect(Self.taken(&source, at: 100 + gap - 0.001) == nil, "not before its time")
        #expect(abs(try #require(source.delay(now: 100)) - gap) < 1e-9)
        let second = try #require(Self.taken(&source, at: 100 + gap))
        #expect(second.fix == fixes[1] && second.replayed.position == 1)

        source.stop()
        #expect(source.state == .idle && source.delay(now: 1_000) == nil)
        #expect(Self.taken(&source, at: 1_000_000) == nil, "paused: no fix however late")
        source.start(now: 5_000)
        #expect(Self.taken(&source, at: 5_000)?.replayed.position == 2, "resumed: the next fix at once, on a new clock")
    }

    @Test func aTraceAtSpeedZeroEndsWithItsLastFixAndStaysEnded() throws {
        var source = try FixSource(trace: Self.trace, speed: 0)
        source.resume(after: -1)
        let count = try #require(source.replay?.fixes.count)
        source.start(now: 0)
        var positions: [Int] = []
        while let taken = Self.taken(&source, at: 0) {
            positions.append(taken.replayed.position)
            #expect(taken.replayed.isLast == (positions.count == count))
        }
        #expect(positions == Array(0..<count))
        #expect(source.state == .ended)
        source.stop()
        source.start(now: 1)
        #expect(source.state == .ended, "demand does not start an ended trace again")
    }

    @Test func aTraceResumesAfterItsStoredPositionAndOneStoredAtItsLastFixIsEnded() throws {
        var source = try FixSource(trace: Self.trace, speed: 1)
        let count = try #require(source.replay?.fixes.count)
        source.resume(after: count - 2)
        source.start(now: 0)
        #expect(Self.taken(&source, at: 0)?.replayed == FixSource.Replayed(position: count - 1, isLast: true))
        source.resume(after: count - 1)
        #expect(source.state == .ended)
    }
}
