import GeoWake
import Testing

/// This file imports GeoWake and nothing of geowake's else: it compiles only while GeoWake brings the types its API
/// uses, with their members.
@Suite struct ImportGeoWakeAloneTests {
    @Test("Region, Fix, Timestamp and Coordinate, and their members, are reachable with import GeoWake alone")
    func typesOfTheAPIAreReachable() throws {
        let depot: Region = .circle(id: "depot", latitude: 52.5258, longitude: 13.3745, radius: 300)
        let time = try #require(Timestamp(year: 2026, month: 11, day: 23, hour: 10))
        let coordinate = Coordinate(latitude: 52.5258, longitude: 13.3745)
        let fix = Fix(time: time, coordinate: coordinate)
        #expect(depot.id == "depot")
        #expect(fix.coordinate.latitude == 52.5258)
        #expect("\(fix.time!)" == "2026-11-23T10:00:00.000Z")
        let _: (LocationManager.RegionState, BeaconIdentity?) = (.unknown, nil)
    }
}
