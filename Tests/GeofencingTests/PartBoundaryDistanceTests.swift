import Testing
import GeoWakeCore
@testable import RegionIndex
import TestSupport

/// Polygon boundary distances visit a part's edges band by band and stop at the first band too far away:
/// they must give exactly (to the bit) the least distance over every edge, which is what the monitor's gating
/// and the neighbourhoods' clearances compare with their thresholds.
@Suite struct PartBoundaryDistanceTests {
    /// The city's stars (6 to 64 edges), squares with holes, two-part polygons, a star with a horizontal edge (in
    /// no band), and large parts, in doubles, and again rounded to 7 decimals (stored in fixed point).
    static let regions: [Region] = {
        let city = TestRegions.city(count: 800, seed: 41)
        var rng = SeededGenerator(seed: 5)
        var flat = TestRegions.star(center: Coordinate(latitude: 52.5, longitude: 13.3), radius: 300, vertices: 20, rng: &rng)
        flat[3].latitude = flat[2].latitude
        // Large parts (band lists): stars of 65 to 3,000 edges, some with two holes; a rectangle whose sides are
        // cut into 100 edges each, half of them horizontal.
        let large = (0..<24).map { n -> Region in
            let center = Coordinate(latitude: 52.4 + 0.01 * Double(n), longitude: 13.2 + 0.01 * Double(n))
            let holes = n % 4 == 1
            var rings = [TestRegions.star(center: center, radius: Double.random(in: holes ? 2000...3000 : 200...3000, using: &rng),
                                          vertices: Int.random(in: 65...3000, using: &rng), rng: &rng)]
            if holes {
                rings.append(TestRegions.square(center.longitude, center.latitude, half: 0.0005, clockwise: true))
                rings.append(TestRegions.star(center: Coordinate(latitude: center.latitude + 0.003, longitude: center.longitude),
                                              radius: 60, vertices: 200, rng: &rng).reversed())
            }
            return Region(id: "large\(n)", shape: .polygon(MultiPolygon(polygons: [rings])))
        }
        let corners = [(13.5, 52.3), (13.52, 52.3), (13.52, 52.31), (13.5, 52.31)]
        let rectangle = (0..<400).map { k -> Coordinate in
            let (x0, y0) = corners[k / 100], (x1, y1) = corners[(k / 100 + 1) % 4], t = Double(k % 100) / 100
            return Coordinate(latitude: y0 + (y1 - y0) * t, longitude: x0 + (x1 - x0) * t)
        }
        let rounded = (city + large).compactMap { region -> Region? in
            guard case let .polygon(shape) = region.shape else { return nil }
            let polygons = shape.polygons.map { $0.map { $0.map {
                Coordinate(latitude: ($0.latitude * 1e7).rounded() / 1e7, longitude: ($0.longitude * 1e7).rounded() / 1e7)
            } } }
            return Region(id: "fixed-" + region.id, shape: .polygon(MultiPolygon(polygons: polygons)))
        }
        return city + rounded + [Region(id: "flat", shape: .polygon(MultiPolygon(polygons: [[flat]]))),
                                 Region(id: "rectangle", shape: .polygon(MultiPolygon(polygons: [[rectangle + [rectangle[0]]]])))] + large
    }()

    /// Points around one polygon: near its vertices (on them, millimetres to a hundred metres off), and scattered
    /// over a box three times its size, so that some lie beyond its parts' latitude range.
    static func points(around shape: MultiPolygon, count: Int, rng: inout SeededGenerator) -> [Coordinate] {
        let vertices = Array(shape.polygons.joined().joined())
        let latitudes = vertices.map(\.latitude), longitudes = vertices.map(\.longitude)
        let height = latitudes.max()! - latitudes.min()!, width = longitudes.max()! - longitudes.min()!
        return (0..<count).map { n in
            if n % 2 == 0 {
                return Coordinate(latitude: Double.random(in: latitudes.min()! - height...latitudes.max()! + height, using: &rng),
                                  longitude: Double.random(in: longitudes.min()! - width...longitudes.max()! + width, using: &rng))
            }
            let vertex = vertices.randomElement(using: &rng)!
            let reach = [0.0, 1e-8, 1e-6, 1e-4, 1e-3].randomElement(using: &rng)!
            return Coordinate(latitude: vertex.latitude + Double.random(in: -reach...reach, using: &rng),
                              longitude: vertex.longitude + Double.random(in: -reach...reach, using: &rng))
        }
    }

    @Test func bandedPolygonDistanceEqualsTheLeastOverEveryEdge() throws {
        let index = try RegionIndex(regions: Self.regions)
        let store = index.store
        var rng = SeededGenerator(seed: 11)
        // Parts by the way they are measured: small and banded, small with an edge in no band (every edge), large
        // with horizontal edges listed after their bands.
        var polygons = 0, banded = 0, unbanded = 0, largeWithHorizontal = 0
        for region in Self.regions {
            guard case let .polygon(shape) = region.shape, let handle = index.handle(forID: region.id) else { continue }
            polygons += 1
            let slot = store.checkedSlot(handle), polygon = Int(store.shapeIndex[slot.index])
            for part in Int(store.polygonPartStart[polygon])..<Int(store.polygonPartStart[polygon + 1]) {
                let header = store.partHeaders[part]
                switch header.kind {
                case .small where store.everyEdgeBanded(header, part: part): banded += 1
                case .small: unbanded += 1
                case .large:
                    let horizontal = header.firstBand + Int(header.bandCount)
                    if store.bandEdgeStart[horizontal + 1] > store.bandEdgeStart[horizontal] { largeWithHorizontal += 1 }
                case .removed: break
                }
            }
            for point in Self.points(around: shape, count: 40, rng: &rng) {
                let scale = Geodesy.metresPerDegree(atLatitude: point.latitude)
                var least = Double.infinity
                store.forEachEdge(ofPolygon: polygon) { x0, y0, x1, y1 in
                    least = min(least, RegionStore.edgeDistanceSquared(x0, y0, x1, y1, x: point.longitude, y: point.latitude, scale: scale))
                }
                let distance = store.boundaryDistance(slot: slot, longitude: point.longitude, latitude: point.latitude, scale: scale)
                #expect(distance.bitPattern == least.squareRoot().bitPattern, "\(region.id) at \(point): \(distance) vs \(least.squareRoot())")
            }
        }
        #expect(polygons > 700)
        #expect(banded > 500)
        #expect(unbanded > 50)
        #expect(largeWithHorizontal >= 1)
    }
}
