import GeoWakeCore
import Testing
import LocationServices

@Suite struct StandardLocationFilterTests {
    /// Feeds (metres east, seconds, accuracy) and returns the seconds of the delivered fixes.
    func delivered(_ filter: inout StandardLocationFilter, _ steps: [(Double, Double, Double?)]) -> [Double] {
        steps.compactMap { metres, seconds, accuracy in
            (filter.update(with: Here.fix(Here.offset(metres), at: seconds, accuracy: accuracy), at: Here.instant(seconds)) as Fix?)
                .map { $0.time! - Here.start }
        }
    }

    @Test func withoutOptionsEveryFixIsDelivered() {
        var filter = StandardLocationFilter()
        #expect(delivered(&filter, [(0, 0, nil), (0, 1, nil), (0.5, 2, nil)]) == [0, 1, 2])
    }

    @Test func theDistanceFilterMeasuresFromTheLastDeliveredFixNotTheLastSeen() {
        var filter = StandardLocationFilter(configuration: .init(distanceFilter: 10))
        // Creeping 4 m a second: delivered at 0 m, then at 12 m (3 steps), 24 m, 36 m.
        let steps = (0...9).map { (Double($0) * 4, Double($0), nil as Double?) }
        #expect(delivered(&filter, steps) == [0, 3, 6, 9])
    }

    @Test func theDistanceFilterIsAtLeastNotMoreThan() {
        var filter = StandardLocationFilter(configuration: .init(distanceFilter: 10))
        #expect(delivered(&filter, [(0, 0, nil), (9.99, 1, nil), (10.01, 2, nil)]) == [0, 2])
    }

    @Test func desiredAccuracyDropsWorseOrUnknownFixesAndTheyDoNotBecomeTheReference() {
        var filter = StandardLocationFilter(configuration: .init(distanceFilter: 50, desiredAccuracy: 20))
        let steps: [(Double, Double, Double?)] = [(0, 0, 35), (0, 1, nil), (0, 2, 20), (60, 3, 25), (45, 4, 5), (55, 5, 19)]
        #expect(delivered(&filter, steps) == [2, 5])
    }

    @Test func aMinimumIntervalAllowsAtMostOneFixPerInterval() {
        var filter = StandardLocationFilter(configuration: .init(minimumInterval: 5))
        let steps = (0...12).map { (Double($0) * 100, Double($0), nil as Double?) }
        #expect(delivered(&filter, steps) == [0, 5, 10])
    }

    @Test func fixesWhoseTimeGoesBackwardsAreIgnored() {
        var filter = StandardLocationFilter()
        #expect(delivered(&filter, [(0, 10, nil), (5, 9, nil), (5, 10, nil), (6, 11, nil)]) == [10, 10, 11])
    }

    @Test func outOfRangeOptionsAreRejectedWithTheirName() {
        do {
            try StandardLocationFilter.Configuration(distanceFilter: -1).validate()
            Issue.record("a negative distance filter was accepted")
        } catch {
            #expect(error.description.contains("distance filter"))
        }
        #expect(throws: InvalidServiceConfiguration.self) {
            try StandardLocationFilter.Configuration(desiredAccuracy: 0).validate()
        }
        #expect(throws: Never.self) {
            try StandardLocationFilter.Configuration(distanceFilter: 0, desiredAccuracy: 10, minimumInterval: 0).validate()
        }
    }
}
