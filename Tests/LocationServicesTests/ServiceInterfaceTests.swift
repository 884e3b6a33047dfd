import GeoWakeCore
import Testing
import LocationServices

/// The three fix-fed services through the one interface and the shared replay loop.
@Suite struct ServiceInterfaceTests {
    @Test func visitsThroughTheReplayAreArrivalThenDepartureStampedWhenReported() {
        let place = Here.offset(2000)
        var fixes = stride(from: 0, through: 600, by: 10).map { Here.fix(place, at: Double($0), accuracy: 8) }
        fixes.append(Here.fix(Here.offset(500, from: place), at: 610))
        var replay = ServiceReplay(VisitDetector())
        var events: [VisitEvent] = []
        replay.feed(fixes) { events += $0 }
        #expect(events.map(\.kind) == [.arrival, .departure])
        #expect(events.map(\.reportedAt) == [Here.instant(300), Here.instant(610)])
        #expect(events.allSatisfy { $0.visit.arrival == Here.instant(0) })
    }

    @Test func theStandardFilterDeliversLocationUpdatesPastTheDistanceFilter() {
        var filter = StandardLocationFilter(configuration: .init(distanceFilter: 100))
        var events: [LocationUpdate] = []
        for (metres, second) in [(0.0, 0.0), (50, 1), (150, 2), (200, 3)] {
            filter.update(with: Here.fix(Here.offset(metres), at: second), at: Here.instant(second), events: &events)
        }
        #expect(events.map { $0.fix.time! - Here.start } == [0, 2])
    }

    @Test func significantChangesComeFarApartAndAWhileApart() {
        var replay = ServiceReplay(SignificantChangeDetector(configuration: .init(distance: 500, interval: 60)))
        var events: [SignificantChange] = []
        let fixes = [(0.0, 0.0), (600, 30), (600, 70), (700, 200)].map { Here.fix(Here.offset($0), at: $1) }
        replay.feed(fixes) { events += $0 }
        #expect(events.map { $0.fix.time! - Here.start } == [0, 70])
    }
}
