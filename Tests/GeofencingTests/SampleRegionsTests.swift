import Testing
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

/// The sample sets in regions/ load as a directory and mean what their names say.
@Suite struct SampleRegionsTests {
    @Test func sampleDirectoryLoadsAndAnswersLikeItsDescription() throws {
        let store = try RegionLoader.load(packageRoot + "/regions")
        let summary = RegionSummary(store)
        #expect(store.liveCount == 1012)
        #expect(summary.beacons == 5 && summary.holes == 3)
        let index = RegionIndex(store)
        func ids(_ lat: Double, _ lon: Double) -> [String] {
            index.regions(containing: Coordinate(latitude: lat, longitude: lon)).map { index.attributes(of: $0).id }
                .filter { !$0.hasPrefix("r0") }.sorted()
        }
        #expect(ids(52.5150, 13.3400) == ["tiergarten-ring"])
        #expect(ids(52.5150, 13.3500) == [], "in a hole")
        #expect(ids(52.5220, 13.4125) == ["alexanderplatz"], "in the hole of the second part, still in the circle")
        #expect(ids(52.5220, 13.4140) == ["alexanderplatz", "museum-island-and-friends"].sorted())
        #expect(ids(-16.5, -179.99) == ["fiji-antimeridian"])
        #expect(ids(65.5, 179.5) == ["chukotka-and-alaska"] && ids(65.5, -179.5) == ["chukotka-and-alaska"])
        #expect(ids(89.99, -150) == ["north-pole"])
        let tiergarten = index.attributes(of: index.handle(forID: "tiergarten-ring")!)
        #expect(tiergarten == RegionAttributes(id: "tiergarten-ring", notifyOnEntry: true, notifyOnExit: false, dwell: 300))
    }
}
