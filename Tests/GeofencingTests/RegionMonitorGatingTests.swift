import Testing
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

@Suite struct RegionMonitorGatingTests {
    let circle = ReferenceRegions([Berlin.circle("a")])

    @Test func aFixWhoseAccuracyCircleStraddlesTheBoundaryDecidesNothing() {
        var driver = MonitorDriver(circle)
        #expect(driver.fix(Berlin.offset(90), at: 0, accuracy: 20) == [])
        #expect(driver.fix(Berlin.offset(85), at: 1, accuracy: 20) == [])
        #expect(driver.fix(Berlin.offset(79), at: 2, accuracy: 20) == ["enter a @2"])
        #expect(driver.fix(Berlin.offset(115), at: 3, accuracy: 20) == [])
        #expect(driver.fix(Berlin.offset(95), at: 4, accuracy: 20) == [])
        #expect(driver.fix(Berlin.offset(121), at: 5, accuracy: 20) == ["exit a @5"])
    }

    @Test func aStraddlingFirstFixLeavesTheRegionUnknownNotOutside() {
        var driver = MonitorDriver(circle)
        #expect(driver.fix(Berlin.offset(100), at: 0, accuracy: 30) == [])
        #expect(driver.monitor.activeRegionCount == 0)
        #expect(driver.fix(Berlin.offset(40), at: 1, accuracy: 30) == ["enter a @1"])
    }

    @Test func gatingMeasuresPolygonsByTheirBoundaryToo() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.square("sq", side: 200)]))
        #expect(driver.fix(Berlin.offset(85), at: 0, accuracy: 20) == [])
        #expect(driver.fix(Berlin.offset(75), at: 1, accuracy: 20) == ["enter sq @1"])
        #expect(driver.fix(Berlin.offset(-110, bearing: 0), at: 2, accuracy: 20) == [])
        #expect(driver.fix(Berlin.offset(-125, bearing: 0), at: 3, accuracy: 20) == ["exit sq @3"])
    }

    @Test func fixesWithoutAnAccuracyEstimateAreTakenAsExact() {
        var driver = MonitorDriver(circle)
        #expect(driver.fix(Berlin.offset(99), at: 0) == ["enter a @0"])
        #expect(driver.fix(Berlin.offset(101), at: 1) == ["exit a @1"])
    }

    @Test func hysteresisHoldsTheExitUntilTheFixIsThatFarOutside() {
        var driver = MonitorDriver(circle, RegionMonitorConfiguration(hysteresis: 30))
        #expect(driver.fix(Berlin.offset(99), at: 0) == ["enter a @0"])
        #expect(driver.fix(Berlin.offset(125), at: 1) == [])
        #expect(driver.fix(Berlin.offset(129), at: 2) == [])
        #expect(driver.fix(Berlin.offset(131), at: 3) == ["exit a @3"])
        // Entering needs no margin: the boundary itself decides.
        #expect(driver.fix(Berlin.offset(99), at: 4) == ["enter a @4"])
    }

    @Test func hysteresisAddsToTheAccuracyRadius() {
        var driver = MonitorDriver(circle, RegionMonitorConfiguration(hysteresis: 30))
        #expect(driver.fix(Berlin.center, at: 0, accuracy: 10) == ["enter a @0"])
        #expect(driver.fix(Berlin.offset(138), at: 1, accuracy: 10) == [])
        #expect(driver.fix(Berlin.offset(141), at: 2, accuracy: 10) == ["exit a @2"])
    }

    @Test func exactSwitchesOffGatingHysteresisAndDebounce() {
        var driver = MonitorDriver(circle, .exact())
        #expect(driver.fix(Berlin.offset(99), at: 0, accuracy: 50) == ["enter a @0"])
        #expect(driver.fix(Berlin.offset(101), at: 1, accuracy: 50) == ["exit a @1"])
        #expect(RegionMonitorConfiguration.exact() == RegionMonitorConfiguration(hysteresis: 0, debounce: 0,
                                                                                  accuracyGating: false))
    }

    @Test func outOfRangeOptionsAreRejectedWithTheirName() {
        #expect(throws: InvalidServiceConfiguration.self) {
            try RegionMonitorConfiguration(hysteresis: -1).validate()
        }
        do {
            try RegionMonitorConfiguration(debounce: .nan).validate()
            Issue.record("NaN debounce accepted")
        } catch {
            #expect(error.description.contains("debounce"))
        }
        #expect(throws: Never.self) { try RegionMonitorConfiguration(hysteresis: 5, debounce: 3).validate() }
    }
}
