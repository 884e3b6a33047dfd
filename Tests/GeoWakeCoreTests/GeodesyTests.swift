import Testing
@testable import GeoWakeCore

@Suite struct GeodesyTests {
    // Reference values from GeographicLib (Karney), which is exact to nanometres.
    @Test func vincentyMatchesKarneyToTheMillimetre() {
        let flinders = Coordinate(latitude: -37.95103341666667, longitude: 144.42486788888888)
        let buninyong = Coordinate(latitude: -37.65282113888889, longitude: 143.92649552777777)
        #expect(abs(Geodesy.distance(flinders, buninyong) - 54972.271) < 0.001)
        let jfk = Coordinate(latitude: 40.64, longitude: -73.78)
        let lhr = Coordinate(latitude: 51.47, longitude: -0.46)
        #expect(abs(Geodesy.distance(jfk, lhr) - 5554747.7397) < 0.001)
        let nearPole = Coordinate(latitude: -89.9, longitude: 0)
        #expect(abs(Geodesy.distance(nearPole, Coordinate(latitude: -89.9, longitude: 180)) - 22338.7957) < 0.001)
    }

    @Test func destinationInvertsDistanceAndBearing() {
        let start = Coordinate(latitude: 52.52, longitude: 13.40)
        for bearing in stride(from: 0.0, to: 360.0, by: 37.0) {
            for distance in [0.5, 150.0, 12_345.0, 2_000_000.0] {
                let end = Geodesy.destination(from: start, bearing: bearing, distance: distance)
                #expect(abs(Geodesy.distance(start, end) - distance) < 0.0005)
            }
        }
    }

    @Test func distanceAcrossTheAntimeridianIsShort() {
        let west = Coordinate(latitude: -16.5, longitude: 179.9995)
        let east = Coordinate(latitude: -16.5, longitude: -179.9995)
        #expect(Geodesy.distance(west, east) < 120)
        #expect(abs(Geodesy.localDistance(west, east) - Geodesy.distance(west, east)) < 0.001)
    }

    @Test func nearlyAntipodalPointsStillGiveADistance() {
        let p = Coordinate(latitude: 0, longitude: 0)
        let q = Coordinate(latitude: 0.5, longitude: 179.7)
        let d = Geodesy.distance(p, q)
        #expect(d > 19_900_000 && d < 20_040_000)
    }
}

@Suite struct TimestampTests {
    @Test func civilRoundTripsAcrossLeapDaysAndCenturies() {
        for (y, m, d) in [(1970, 1, 1), (2000, 2, 29), (2100, 3, 1), (2024, 12, 31), (1999, 8, 22), (2038, 1, 19)] {
            let t = Timestamp(year: y, month: m, day: d, hour: 23, minute: 59, second: 58, millisecond: 999)!
            let c = t.civil
            #expect(c.year == y && c.month == m && c.day == d && c.hour == 23 && c.minute == 59 && c.second == 58 && c.millisecond == 999)
        }
    }

    @Test func rejectsImpossibleDates() {
        #expect(Timestamp(year: 2023, month: 2, day: 29) == nil)
        #expect(Timestamp(year: 2024, month: 13, day: 1) == nil)
        #expect(Timestamp(year: 2024, month: 1, day: 1, hour: 24) == nil)
    }
}
