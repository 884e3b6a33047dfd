import Testing
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

@Suite struct RegionMonitorTests {
    let regions = ReferenceRegions([Berlin.circle("a")])

    @Test func firstFixInsideEntersAndFirstFixOutsideIsSilent() {
        var fromInside = MonitorDriver(regions)
        #expect(fromInside.fix(Berlin.center, at: 0) == ["enter a @0"])

        var fromOutside = MonitorDriver(regions)
        #expect(fromOutside.fix(Berlin.offset(500), at: 0) == [])
        #expect(fromOutside.fix(Berlin.offset(400), at: 1) == [])
        #expect(fromOutside.fix(Berlin.offset(50), at: 2) == ["enter a @2"])
    }

    @Test func everyChangeIsReportedOnceAndStayingPutReportsNothing() {
        var driver = MonitorDriver(regions)
        var events: [String] = []
        for (second, metres) in [0.0, 20, 300, 310, 10, -30, -200].enumerated() {
            events += driver.fix(Berlin.offset(metres), at: Double(second))
        }
        #expect(events == ["enter a @0", "exit a @2", "enter a @4", "exit a @6"])
    }

    @Test func notifyOnEntryFalseSilencesEnterButTheStateStillChanges() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a", notifyOnEntry: false)]))
        #expect(driver.fix(Berlin.center, at: 0) == [])
        #expect(driver.monitor.isInside(ReferenceRegions.handle(0)))
        #expect(driver.fix(Berlin.offset(300), at: 1) == ["exit a @1"])
        #expect(driver.fix(Berlin.center, at: 2) == [])
    }

    @Test func notifyOnExitFalseSilencesExitButTheNextEnterIsReported() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a", notifyOnExit: false)]))
        #expect(driver.fix(Berlin.center, at: 0) == ["enter a @0"])
        #expect(driver.fix(Berlin.offset(300), at: 1) == [])
        #expect(!driver.monitor.isInside(ReferenceRegions.handle(0)))
        #expect(driver.fix(Berlin.center, at: 2) == ["enter a @2"])
    }

    @Test func eventsOfOneFixAreExitsThenEntersEachInByteOrderOfTheId() {
        // "e\u{301}" (bytes 65 CC 81) sorts before "f" by bytes, after it by Swift's String comparison.
        let west = Berlin.offset(-1000), east = Berlin.offset(1000)
        let regions = ReferenceRegions([
            Berlin.circle("f", radius: 200, at: west), Berlin.circle("e\u{301}", radius: 200, at: west),
            Berlin.circle("B", radius: 200, at: east), Berlin.circle("a", radius: 200, at: east),
            Berlin.circle("e\u{301}x", radius: 200, at: east), Berlin.circle("Z", radius: 200, at: east),
        ])
        var driver = MonitorDriver(regions)
        #expect(driver.fix(west, at: 0) == ["enter e\u{301} @0", "enter f @0"])
        #expect(driver.fix(east, at: 1) == ["exit e\u{301} @1", "exit f @1", "enter B @1", "enter Z @1",
                                            "enter a @1", "enter e\u{301}x @1"])
    }

    @Test func fixesWhoseTimeGoesBackwardsAreIgnored() {
        var driver = MonitorDriver(regions)
        #expect(driver.fix(Berlin.center, at: 10) == ["enter a @10"])
        #expect(driver.fix(Berlin.offset(500), at: 5) == [])
        #expect(driver.monitor.isInside(ReferenceRegions.handle(0)))
        #expect(driver.fix(Berlin.offset(10), at: 11) == [])
        #expect(driver.fix(Berlin.offset(500), at: 12) == ["exit a @12"])
    }

    @Test func aFixAtTheSameInstantAsThePreviousIsStillUsed() {
        var driver = MonitorDriver(regions)
        #expect(driver.fix(Berlin.offset(500), at: 3) == [])
        #expect(driver.fix(Berlin.center, at: 3) == ["enter a @3"])
    }

    @Test func aFixOffTheGlobeDecidesNothing() {
        var driver = MonitorDriver(regions)
        #expect(driver.fix(Berlin.center, at: 0) == ["enter a @0"])
        #expect(driver.fix(Coordinate(latitude: .nan, longitude: 13.4), at: 1) == [])
        #expect(driver.fix(Coordinate(latitude: 91, longitude: 13.4), at: 2) == [])
        #expect(driver.monitor.isInside(ReferenceRegions.handle(0)))
    }

    @Test func aGapInFixesIsNotAnExit() {
        var driver = MonitorDriver(regions)
        #expect(driver.fix(Berlin.center, at: 0) == ["enter a @0"])
        #expect(driver.advance(to: 7200) == [])
        #expect(driver.fix(Berlin.offset(30), at: 7200) == [])
        #expect(driver.monitor.isInside(ReferenceRegions.handle(0)))
        #expect(driver.fix(Berlin.offset(500), at: 9000) == ["exit a @9000"])
    }

    @Test func stateIsKeptOnlyForRegionsInsideAndFarRegionsAreNeverMeasured() {
        // 400 regions 5 to 25 km away, and 2 around the centre.
        var regions = (0..<400).map { i in
            Berlin.circle("far\(i)", radius: 300, at: Berlin.offset(5000 + Double(i) * 50, bearing: Double(i)))
        }
        regions += [Berlin.circle("near1", radius: 200), Berlin.circle("near2", radius: 500)]
        let counting = CountingRegions(ReferenceRegions(regions))
        var driver = MonitorDriver(counting, RegionMonitorConfiguration(hysteresis: 20))
        var events: [String] = []
        for second in 0..<100 {
            events += driver.fix(Berlin.offset(Double(second) * 4), at: Double(second), accuracy: 5)
            #expect(driver.monitor.activeRegionCount <= 2)
        }
        #expect(events == ["enter near1 @0", "enter near2 @0", "exit near1 @57"])
        #expect(driver.monitor.activeRegionCount == 1)
        #expect(counting.measuredFarRegions == 0)
    }
}

/// Counts which regions the monitor measures one by one, beyond the index's own queries.
final class CountingRegions: RegionQuerying {
    let base: ReferenceRegions
    private(set) var measuredFarRegions = 0

    init(_ base: ReferenceRegions) {
        self.base = base
    }

    private func note(_ region: RegionHandle) {
        if base.regions[Int(region.slot.rawValue)].id.hasPrefix("far") { measuredFarRegions += 1 }
    }

    func forEachRegion(containing point: Coordinate, _ body: (RegionHandle) -> Void) {
        base.forEachRegion(containing: point, body)
    }

    func forEachRegion(within distance: Double, of point: Coordinate, _ body: (RegionHandle) -> Void) {
        base.forEachRegion(within: distance, of: point, body)
    }

    func forEachRegion(crossedBy a: Coordinate, _ b: Coordinate, _ body: (RegionHandle) -> Void) {
        base.forEachRegion(crossedBy: a, b, body)
    }

    func signedDistance(from point: Coordinate, to region: RegionHandle) -> Double {
        note(region)
        return base.signedDistance(from: point, to: region)
    }

    func contains(_ region: RegionHandle, _ point: Coordinate) -> Bool {
        note(region)
        return base.contains(region, point)
    }

    func attributes(of region: RegionHandle) -> RegionAttributes {
        note(region)
        return base.attributes(of: region)
    }
}
