import GeoWakeCore
import Testing
import LocationServices

@Suite struct VisitDetectorTests {
    /// Visits rendered as "arrive @a" or "depart @a-@d", seconds after the start.
    func visits(_ detector: inout VisitDetector, _ fixes: [Fix]) -> [String] {
        fixes.flatMap { fix in
            (detector.update(with: fix, at: fix.time!) as [Visit]).map { visit in
                let arrival = Int(visit.arrival - Here.start)
                guard let departure = visit.departure else { return "arrive @\(arrival)" }
                return "depart @\(arrival)-@\(Int(departure - Here.start))"
            }
        }
    }

    /// One fix every 10 s, wandering up to `wander` metres around `place`, from `from` to `to` seconds.
    func stay(at place: Coordinate, from: Int, to: Int, wander: Double = 30) -> [Fix] {
        stride(from: from, through: to, by: 10).map { second in
            Here.fix(Here.offset(wander * Double(second % 3) / 2, bearing: Double(second * 37), from: place),
                     at: Double(second), accuracy: 8)
        }
    }

    @Test func anArrivalIsReportedOnceTheStayLastedTheMinimumDuration() {
        var detector = VisitDetector()
        let fixes = stay(at: Here.center, from: 0, to: 290)
        #expect(visits(&detector, fixes) == [])
        #expect(visits(&detector, stay(at: Here.center, from: 300, to: 900)) == ["arrive @0"])
        #expect(detector.currentVisit?.arrival == Here.instant(0))
    }

    @Test func aDepartureCarriesTheArrivalTheLastTimeInsideAndTheCentre() {
        var detector = VisitDetector()
        let place = Here.offset(2000)
        var fixes = stay(at: place, from: 0, to: 600)
        fixes.append(Here.fix(Here.offset(150, from: place), at: 610))
        var departures: [Visit] = []
        for fix in fixes { departures += (detector.update(with: fix, at: fix.time!) as [Visit]).filter { $0.departure != nil } }
        #expect(departures.count == 1)
        #expect(departures.first?.arrival == Here.instant(0))
        #expect(departures.first?.departure == Here.instant(600))
        #expect(departures.first.map { Geodesy.distance($0.center, place) < 25 } == true)
        #expect(detector.currentVisit == nil)
    }

    @Test func aStayShorterThanTheMinimumDurationIsNoVisit() {
        var detector = VisitDetector()
        var fixes = stay(at: Here.center, from: 0, to: 280)
        fixes += stay(at: Here.offset(1000), from: 290, to: 500)
        #expect(visits(&detector, fixes) == [])
    }

    @Test func walkingAwayEndsTheCandidateWithoutAVisit() {
        var detector = VisitDetector()
        let walk = (0...900).map { Here.fix(Here.offset(Double($0) * 1.4), at: Double($0), accuracy: 5) }
        #expect(visits(&detector, walk) == [])
    }

    @Test func aGapInFixesIsNotADeparture() {
        var detector = VisitDetector()
        var fixes = stay(at: Here.center, from: 0, to: 400)
        fixes += stay(at: Here.center, from: 4000, to: 4100)
        fixes.append(Here.fix(Here.offset(500), at: 4110))
        #expect(visits(&detector, fixes) == ["arrive @0", "depart @0-@4100"])
    }

    @Test func fixesLessAccurateThanTheRadiusAreIgnored() {
        var detector = VisitDetector()
        var fixes = stay(at: Here.center, from: 0, to: 400)
        fixes.append(Here.fix(Here.offset(400), at: 410, accuracy: 250))
        fixes += stay(at: Here.center, from: 420, to: 500)
        #expect(visits(&detector, fixes) == ["arrive @0"])
    }

    @Test func leavingStartsTheNextStayAtTheLeavingFix() {
        var detector = VisitDetector(configuration: .init(radius: 50, minimumDuration: 60))
        var fixes = stay(at: Here.center, from: 0, to: 100, wander: 10)
        fixes += stay(at: Here.offset(800), from: 110, to: 200, wander: 10)
        #expect(visits(&detector, fixes) == ["arrive @0", "depart @0-@100", "arrive @110"])
    }

    @Test func fixesWhoseTimeGoesBackwardsAreIgnored() {
        var detector = VisitDetector(configuration: .init(radius: 50, minimumDuration: 60))
        var fixes = stay(at: Here.center, from: 100, to: 150, wander: 10)
        fixes.append(Here.fix(Here.offset(900), at: 20))
        fixes += stay(at: Here.center, from: 160, to: 170, wander: 10)
        #expect(visits(&detector, fixes) == ["arrive @100"])
    }

    @Test func outOfRangeOptionsAreRejected() {
        #expect(throws: InvalidServiceConfiguration.self) { try VisitDetector.Configuration(radius: 0).validate() }
        #expect(throws: InvalidServiceConfiguration.self) {
            try VisitDetector.Configuration(minimumDuration: -1).validate()
        }
    }
}
