import Testing
import Geofencing
import RegionIndex
import Regions

@Suite struct RegionMonitorCrossingTests {
    let crossing = RegionMonitorConfiguration(segmentCrossing: true)

    @Test func aSegmentThroughARegionNeitherFixLiesInYieldsCrossedEnterThenExit() {
        let regions = ReferenceRegions([Berlin.circle("a")])
        var driver = MonitorDriver(regions, crossing)
        #expect(driver.fix(Berlin.offset(-1000), at: 0) == [])
        #expect(driver.fix(Berlin.offset(1000), at: 60) == ["enter a @60 crossed", "exit a @60 crossed"])
        #expect(driver.monitor.activeRegionCount == 0)

        var plain = MonitorDriver(regions)
        #expect(plain.fix(Berlin.offset(-1000), at: 0) == [])
        #expect(plain.fix(Berlin.offset(1000), at: 60) == [])
    }

    @Test func aSegmentPassingBesideARegionCrossesNothing() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a")]), crossing)
        let north = Berlin.offset(150, bearing: 0)
        #expect(driver.fix(Berlin.offset(-1000, from: north), at: 0) == [])
        #expect(driver.fix(Berlin.offset(1000, from: north), at: 60) == [])
    }

    @Test func aFixInsideTheRegionIsAnOrdinaryEnterNotACrossing() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a")]), crossing)
        #expect(driver.fix(Berlin.offset(-1000), at: 0) == [])
        #expect(driver.fix(Berlin.offset(50), at: 60) == ["enter a @60"])
        #expect(driver.fix(Berlin.offset(1000), at: 120) == ["exit a @120"])
    }

    @Test func crossingsComeBetweenTheExitsAndTheEntersOfTheirFix() {
        let west = Berlin.offset(-1000), east = Berlin.offset(1000)
        let regions = ReferenceRegions([
            Berlin.circle("old", radius: 200, at: west), Berlin.circle("new", radius: 200, at: east),
            Berlin.circle("mid2"), Berlin.circle("mid1", radius: 50, at: Berlin.offset(400)),
        ])
        var driver = MonitorDriver(regions, crossing)
        #expect(driver.fix(west, at: 0) == ["enter old @0"])
        #expect(driver.fix(east, at: 60) == ["exit old @60", "enter mid1 @60 crossed", "exit mid1 @60 crossed",
                                             "enter mid2 @60 crossed", "exit mid2 @60 crossed", "enter new @60"])
    }

    @Test func crossingsHonourTheNotifyFlags() {
        let regions = ReferenceRegions([Berlin.circle("in", notifyOnExit: false),
                                        Berlin.circle("out", radius: 60, notifyOnEntry: false)])
        var driver = MonitorDriver(regions, crossing)
        #expect(driver.fix(Berlin.offset(-1000), at: 0) == [])
        #expect(driver.fix(Berlin.offset(1000), at: 60) == ["enter in @60 crossed", "exit out @60 crossed"])
    }
}
