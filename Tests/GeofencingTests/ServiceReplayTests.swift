import Testing
import TestSupport
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

/// The shared replay loop, driving the region monitor as `geowake replay` does.
@Suite struct ServiceReplayTests {
    @Test func fixesWithoutTimeOrGoingBackAreSkippedAndCounted() throws {
        var replay = ServiceReplay(RegionMonitor(regions: try RegionIndex(regions: [Berlin.circle("a")])))
        var batches: [[String]] = []
        let fixes = [Fix(time: nil, coordinate: Berlin.center), Fix(time: instant(5), coordinate: Berlin.offset(500)),
                     Fix(time: instant(3), coordinate: Berlin.center), Fix(time: instant(6), coordinate: Berlin.center),
                     Fix(time: instant(6), coordinate: Berlin.offset(500))]
        replay.feed(fixes) { batches.append($0.map(rendered)) }
        #expect(batches == [["enter a @6"], ["exit a @6"]])
        #expect(replay.replayed == 3 && replay.withoutTime == 1 && replay.backwards == 1)
        #expect(replay.clock == instant(6))
    }

    @Test func finishFiresWhatFallsDueAfterTheLastFix() throws {
        let monitor = RegionMonitor(regions: try RegionIndex(regions: [Berlin.circle("a", dwell: 30)]))
        var replay = ServiceReplay(monitor)
        var events: [String] = []
        replay.feed([Fix(time: instant(0), coordinate: Berlin.center)]) { events += $0.map(rendered) }
        replay.finish(at: instant(29)) { events += $0.map(rendered) }
        replay.finish(at: instant(30)) { events += $0.map(rendered) }
        #expect(events == ["enter a @0", "dwell a @30"])
    }

    @Test func theReplayGivesTheEventsOfFeedingTheMonitorByHand() throws {
        var random = SeededGenerator(seed: 71)
        let fixes = RandomScene.walk(fixes: 1000, using: &random)
        let index = try RegionIndex(regions: TestRegions.city(count: 800, seed: 72, spanDegrees: 0.08))
        var byHand = RegionMonitor(regions: index)
        var expected: [RegionEvent] = []
        for fix in fixes { byHand.update(with: fix, at: fix.time!, events: &expected) }
        var replay = ServiceReplay(RegionMonitor(regions: index))
        var got: [RegionEvent] = []
        replay.feed(fixes) { got += $0 }
        #expect(!expected.isEmpty)
        #expect(got == expected)
    }
}
