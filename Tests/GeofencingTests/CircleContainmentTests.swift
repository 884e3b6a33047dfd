#if canImport(Glibc)
import Glibc
#endif
import Testing
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

@Suite struct CircleContainmentTests {
    /// The local-metric shortcut decides only outside its error margin: right at the boundary, at the
    /// margin and beyond it, every answer must be Vincenty's.
    @Test func localMetricShortcutNeverContradictsVincenty() {
        var rng = SeededGenerator(seed: 17)
        var decidedByShortcut = 0
        for _ in 0..<3000 {
            let center = Coordinate(latitude: Double.random(in: -80...80, using: &rng), longitude: Double.random(in: -180...180, using: &rng))
            let radius = 30 * pow(3000, Double.random(in: 0...1, using: &rng))   // 30 m .. 90 km
            let circle = RegionStore.circle(longitude: center.longitude, latitude: center.latitude, radius: radius, slot: RegionSlot(0))
            for offset in [-3.0, -1.2, -1.0, -0.5, 0.5, 1.0, 1.2, 3.0] {
                let distance = radius + offset * circle.localMetricMargin
                let p = Geodesy.destination(from: center, bearing: Double.random(in: 0..<360, using: &rng), distance: distance)
                let truth = Geodesy.distance(center, p) <= radius
                #expect(circle.contains(longitude: p.longitude, latitude: p.latitude) == truth,
                        "r \(radius) at \(center), offset \(offset) margins")
                if abs(offset) > 1.1 { decidedByShortcut += 1 }
            }
        }
        #expect(decidedByShortcut > 0)
    }

    @Test func circleAcrossTheAntimeridianIsFoundOnBothSides() throws {
        let index = try RegionIndex(regions: TestRegions.awkwardCircles)
        let fiji = try #require(index.handle(forID: "fiji"))
        for lon in [179.99, 179.9999, 180, -180, -179.999, -179.97] {
            #expect(index.regions(containing: Coordinate(latitude: -16.5, longitude: lon)) == [fiji], "\(lon)")
        }
        #expect(index.regions(containing: Coordinate(latitude: -16.5, longitude: -179.9)).isEmpty)
        var boxes: [GeoBox] = []
        GeoBox.around(longitude: 179.999, latitude: -16.5, radius: 5_000) { boxes.append($0) }
        #expect(boxes.count == 2 && boxes[0].maxX == 180 && boxes[1].minX == -180)
    }

    @Test func polarCirclesCoverEveryLongitude() throws {
        let index = try RegionIndex(regions: TestRegions.awkwardCircles)
        let north = try #require(index.handle(forID: "north-pole")), south = try #require(index.handle(forID: "south-pole"))
        for lon in stride(from: -180.0, through: 180, by: 15) {
            #expect(index.regions(containing: Coordinate(latitude: 89.95, longitude: lon)) == [north], "\(lon)")
            #expect(index.regions(containing: Coordinate(latitude: -89.7, longitude: lon)) == [south], "\(lon)")
        }
        #expect(index.regions(containing: Coordinate(latitude: 90, longitude: 0)) == [north])
        #expect(index.regions(containing: Coordinate(latitude: -89.5, longitude: 0)).isEmpty)
    }
}
