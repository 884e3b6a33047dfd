import Testing
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions
import TestSupport

/// The monitor on the real `RegionIndex`: what `geowake replay` and the daemon run.
@Suite struct RegionMonitorIndexTests {
    static let city = TestRegions.city(count: 3000, seed: 11, spanDegrees: 0.08)

    static func cityTrace(seed: UInt64, fixes: Int = 4000, speeds: [Range<Double>] = [0..<25]) -> [Fix] {
        var random = SeededGenerator(seed: seed)
        return RandomScene.walk(fixes: fixes, using: &random, speeds: speeds)
    }

    /// `locate` prints the ids of `forEachRegion(containing:)` per fix; `replay --exact` must print exactly
    /// the differences between consecutive such sets.
    @Test(arguments: [21, 22] as [UInt64])
    func exactReplayIsTheDifferenceOfLocateSets(seed: UInt64) throws {
        let index = try RegionIndex(regions: Self.city)
        let fixes = Self.cityTrace(seed: seed)
        let expected = RandomScene.containmentDifferences(index, fixes)
        var monitor = RegionMonitor(regions: index, configuration: .exact())
        var events: [RegionEvent] = []
        for fix in fixes { monitor.update(with: fix, at: fix.time!, events: &events) }
        #expect(expected.count > 200)
        #expect(events.map(RandomScene.render) == expected)
    }

    /// The monitor answers containment from the regions near a recent fix while fixes stay close, and asks
    /// the index directly while they are far apart; switching between the two must not change a single event.
    @Test func exactReplayIsTheDifferenceOfLocateSetsAtAnySpeed() throws {
        let index = try RegionIndex(regions: Self.city)
        let fixes = Self.cityTrace(seed: 24, speeds: [0..<2, 40..<150, 5..<30, 80..<95, 0..<0.5, 60..<200])
        let expected = RandomScene.containmentDifferences(index, fixes)
        var monitor = RegionMonitor(regions: index, configuration: .exact())
        var events: [RegionEvent] = []
        for fix in fixes { monitor.update(with: fix, at: fix.time!, events: &events) }
        #expect(expected.count > 200)
        #expect(events.map(RandomScene.render) == expected)
    }

    /// Hysteresis, debounce, gating, dwell and crossings decide the same on the index as on the brute-force
    /// reference: the monitor depends only on what `RegionQuerying` promises.
    @Test func theIndexAndTheReferenceGiveTheSameEventsWithEveryOptionOn() throws {
        // Fewer regions and fixes than above: the reference scans every region for every query.
        let regions = TestRegions.city(count: 400, seed: 12, spanDegrees: 0.03).enumerated().map { i, region in
            var region = region
            region.dwell = i % 3 == 0 ? Double(i % 120) : nil
            region.notifyOnEntry = i % 7 != 0
            region.notifyOnExit = i % 11 != 0
            return region
        }
        let configuration = RegionMonitorConfiguration(hysteresis: 15, debounce: 3, accuracyGating: true,
                                                       segmentCrossing: true)
        var onIndex = RegionMonitor(regions: try RegionIndex(regions: regions), configuration: configuration)
        var onReference = RegionMonitor(regions: ReferenceRegions(regions), configuration: configuration)
        var indexEvents: [RegionEvent] = [], referenceEvents: [RegionEvent] = []
        for fix in Self.cityTrace(seed: 23, fixes: 1500) {
            onIndex.update(with: fix, at: fix.time!, events: &indexEvents)
            onReference.update(with: fix, at: fix.time!, events: &referenceEvents)
        }
        let rendered = indexEvents.map(RandomScene.render)
        #expect(rendered.count > 60)
        #expect(rendered.contains { $0.hasPrefix("dwell") })
        #expect(rendered.contains { $0.hasSuffix("crossed") })
        #expect(rendered == referenceEvents.map(RandomScene.render))
    }
}
