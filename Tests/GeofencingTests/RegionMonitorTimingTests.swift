import Testing
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

@Suite struct RegionMonitorTimingTests {
    @Test func dwellFiresOnceAfterTheLoiteringTime() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a", dwell: 60)]))
        var events: [String] = []
        for second in 0...200 { events += driver.fix(Berlin.offset(Double(second % 7)), at: Double(second)) }
        #expect(events == ["enter a @0", "dwell a @60"])
    }

    @Test func dwellFiresEvenWhenTheEnterIsNotNotified() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a", notifyOnEntry: false, dwell: 30)]))
        #expect(driver.fix(Berlin.center, at: 0) == [])
        #expect(driver.fix(Berlin.center, at: 30) == ["dwell a @30"])
    }

    @Test func anExitBeforeTheLoiteringTimeCancelsTheDwellAndReentryRestartsIt() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a", dwell: 60)]))
        #expect(driver.fix(Berlin.center, at: 0) == ["enter a @0"])
        #expect(driver.fix(Berlin.offset(300), at: 59) == ["exit a @59"])
        #expect(driver.fix(Berlin.center, at: 70) == ["enter a @70"])
        #expect(driver.fix(Berlin.center, at: 129) == [])
        #expect(driver.fix(Berlin.center, at: 131) == ["dwell a @130"])
    }

    @Test func zeroDwellFollowsTheEnterAtTheSameFix() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a", dwell: 0)]))
        #expect(driver.fix(Berlin.center, at: 0) == ["enter a @0", "dwell a @0"])
    }

    @Test func advanceFiresADwellOnTimeWithTheLastKnownPosition() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a", dwell: 60)]))
        let here = Berlin.offset(12)
        #expect(driver.fix(here, at: 0) == ["enter a @0"])
        #expect(driver.monitor.nextDeadline == instant(60))
        #expect(driver.advance(to: 59.999) == [])
        var events: [RegionEvent] = []
        driver.monitor.advance(to: instant(75), events: &events)
        #expect(events.map(rendered) == ["dwell a @60"])
        #expect(events.first?.fix.coordinate == here)
        #expect(driver.monitor.nextDeadline == nil)
        #expect(driver.fix(here, at: 80) == [])
    }

    @Test func debounceReportsAChangeOnlyOnceItHeld() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a")]), RegionMonitorConfiguration(debounce: 10))
        #expect(driver.fix(Berlin.center, at: 0) == [])
        #expect(driver.fix(Berlin.center, at: 5) == [])
        #expect(driver.fix(Berlin.center, at: 10) == ["enter a @10"])
        #expect(driver.fix(Berlin.offset(300), at: 20) == [])
        #expect(driver.fix(Berlin.offset(300), at: 29) == [])
        #expect(driver.fix(Berlin.offset(300), at: 30) == ["exit a @30"])
    }

    @Test func debounceSwallowsAnExcursionShorterThanItself() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a")]), RegionMonitorConfiguration(debounce: 10))
        var events: [String] = []
        // Inside from 0 to 40 except a 6-second excursion outside at 20...25; outside from 50 on, inside at 55 only.
        for second in 0..<80 {
            let outside = (20...25).contains(second) || (second >= 50 && second != 55)
            events += driver.fix(outside ? Berlin.offset(300) : Berlin.center, at: Double(second))
        }
        #expect(events == ["enter a @10", "exit a @66"])
    }

    @Test func aChangeIsReportedWhenItFellDueEvenWithoutAFixThen() {
        var driver = MonitorDriver(ReferenceRegions([Berlin.circle("a")]), RegionMonitorConfiguration(debounce: 10))
        let first = Berlin.offset(5)
        #expect(driver.fix(first, at: 0) == [])
        var events: [RegionEvent] = []
        driver.monitor.update(with: Fix(time: instant(25), coordinate: Berlin.offset(300)), at: instant(25), events: &events)
        #expect(events.map(rendered) == ["enter a @10"])
        #expect(events.first?.fix.coordinate == first)
        #expect(driver.monitor.isInside(ReferenceRegions.handle(0)), "the exit itself must hold for 10 s first")
    }

    @Test func replayingFixesAloneMatchesALiveClockThatAdvancesBetweenThem() {
        let regions = ReferenceRegions([Berlin.circle("a", dwell: 20), Berlin.circle("b", radius: 40, dwell: 5)])
        let configuration = RegionMonitorConfiguration(debounce: 4)
        var replay = MonitorDriver(regions, configuration)
        var live = MonitorDriver(regions, configuration)
        var replayed: [String] = [], lived: [String] = []
        // The clock of a replay stops at its last fix, so the live one ticks only between fixes.
        for (index, metres) in [0.0, 10, 20, 30, 50, 60, 300, 310, 90, 20, 10, 0, 500, 0].enumerated() {
            let second = Double(index) * 7
            if index > 0 {
                for tick in stride(from: second - 6.5, to: second, by: 0.5) { lived += live.advance(to: tick) }
            }
            replayed += replay.fix(Berlin.offset(metres), at: second)
            lived += live.fix(Berlin.offset(metres), at: second)
        }
        #expect(lived == replayed)
        #expect(replayed.contains("dwell a @24"))
    }
}
