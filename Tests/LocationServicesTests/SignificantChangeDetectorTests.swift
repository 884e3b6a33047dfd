import GeoWakeCore
import Testing
import LocationServices

@Suite struct SignificantChangeDetectorTests {
    func reported(_ detector: inout SignificantChangeDetector, _ steps: [(Double, Double)]) -> [Double] {
        steps.compactMap { metres, seconds in
            (detector.update(with: Here.fix(Here.offset(metres), at: seconds), at: Here.instant(seconds)) as Fix?)
                .map { $0.time! - Here.start }
        }
    }

    @Test func theDefaultsAreFiveHundredMetresAndFiveMinutes() {
        let configuration = SignificantChangeDetector.Configuration()
        #expect(configuration.distance == 500)
        #expect(configuration.interval == 300)
    }

    @Test func theFirstFixIsReported() {
        var detector = SignificantChangeDetector()
        #expect(reported(&detector, [(0, 0), (10, 1)]) == [0])
    }

    @Test func movingFarIsNotEnoughBeforeTheIntervalPassed() {
        var detector = SignificantChangeDetector()
        #expect(reported(&detector, [(0, 0), (2000, 60), (4000, 299), (4000, 300)]) == [0, 300])
    }

    @Test func waitingIsNotEnoughWithoutMovingTheDistance() {
        var detector = SignificantChangeDetector()
        #expect(reported(&detector, [(0, 0), (499, 600), (499, 3600), (501, 3601)]) == [0, 3601])
    }

    @Test func theDistanceIsMeasuredFromTheLastReportedPosition() {
        var detector = SignificantChangeDetector()
        // 300 m every 5 minutes: each step alone is short, but every second one is 600 m from the last report.
        let steps = (0...6).map { (Double($0) * 300, Double($0) * 300) }
        #expect(reported(&detector, steps) == [0, 600, 1200, 1800])
    }

    @Test func customDistanceAndInterval() {
        var detector = SignificantChangeDetector(configuration: .init(distance: 50, interval: 10))
        #expect(reported(&detector, [(0, 0), (60, 5), (60, 10), (100, 19), (120, 20)]) == [0, 10, 20])
    }

    @Test func fixesWhoseTimeGoesBackwardsAreIgnored() {
        var detector = SignificantChangeDetector()
        #expect(reported(&detector, [(0, 1000), (5000, 100), (5000, 1299), (5000, 1300)]) == [1000, 1300])
    }

    @Test func negativeOptionsAreRejected() {
        #expect(throws: InvalidServiceConfiguration.self) {
            try SignificantChangeDetector.Configuration(distance: -5).validate()
        }
        #expect(throws: InvalidServiceConfiguration.self) {
            try SignificantChangeDetector.Configuration(interval: .infinity).validate()
        }
    }
}
