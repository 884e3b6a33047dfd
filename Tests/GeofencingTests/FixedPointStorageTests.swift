import CIntrinsics
import Testing
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

/// Vertices with at most 7 decimals are stored as Int32 multiples of 1e-7° (`FixedPoint`), others as
/// doubles: the regions read back are the very doubles given, and containment is what the same crossing
/// test computes on those doubles, right next to edges and on vertices' latitudes included.
@Suite struct FixedPointStorageTests {
    static func rounded(_ x: Double) -> Double { (x * 1e7).rounded() / 1e7 }

    /// The region with every coordinate rounded to 7 decimals.
    static func rounded(_ region: Region) -> Region {
        guard case let .polygon(mp) = region.shape else { return region }
        let polygons = mp.polygons.map { $0.map { $0.map { Coordinate(latitude: rounded($0.latitude), longitude: rounded($0.longitude)) } } }
        return Region(id: region.id, shape: .polygon(MultiPolygon(polygons: polygons)))
    }

    /// Stars of 200 to 3000 vertices (large parts: raster and band lists), rounded to 7 decimals.
    static func largeStars(count: Int, seed: UInt64) -> [Region] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { k in
            let centre = Coordinate(latitude: 52.52 + Double.random(in: -0.1...0.1, using: &rng),
                                    longitude: 13.40 + Double.random(in: -0.2...0.2, using: &rng))
            let ring = TestRegions.star(center: centre, radius: 3_000, vertices: Int.random(in: 200...3000, using: &rng), rng: &rng)
            return rounded(Region(id: "big\(k)", shape: .polygon(MultiPolygon(polygons: [[ring]]))))
        }
    }

    /// A city with every other region rounded to 7 decimals: both storages, interleaved by the layout.
    static let mixed: [Region] = TestRegions.city(count: 3000, seed: 17).enumerated().map { $0.offset % 2 == 0 ? rounded($0.element) : $0.element }
        + largeStars(count: 12, seed: 19)

    /// The crossing-number test on the region's own doubles, every edge, per part: what the index must answer.
    static func doubleContains(_ region: Region, _ p: Coordinate) -> Bool {
        guard case let .polygon(mp) = region.shape else { return false }
        let x = p.longitude, y = p.latitude
        return mp.polygons.contains { rings in
            var inside = false
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst()) {
                    let x0 = a.longitude, y0 = a.latitude, x1 = b.longitude, y1 = b.latitude
                    guard (y0 > y) != (y1 > y) else { continue }
                    if x < x0 && x < x1 { inside.toggle(); continue }
                    if x >= x0 && x >= x1 { continue }
                    let side = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)
                    if (side > 0) == (y1 > y0) { inside.toggle() }
                }
            }
            return inside
        }
    }

    @Test func floorIsTheLargestUnitAtOrBelow() {
        var rng = SeededGenerator(seed: 3)
        var values: [Double] = [0, -0.0, 180, -180, 90, -90, 1e-7, -1e-7, 12.3456789]
        for _ in 0..<20_000 {
            let k = Int32.random(in: -1_800_000_000...1_800_000_000, using: &rng)
            let v = FixedPoint.value(k)
            values += [v, v.nextUp, v.nextDown, Double.random(in: -180...180, using: &rng)]
        }
        for v in values {
            let k = FixedPoint.floor(v)
            #expect(FixedPoint.value(Int32(k)) <= v && FixedPoint.value(Int32(k + 1)) > v, "\(v): \(k)")
        }
    }

    @Test func exactValuesOnlyAreFixedPoint() {
        #expect(FixedPoint.exact(13.4050001) == 134_050_001)
        #expect(FixedPoint.exact(-179.9999999) == -1_799_999_999)
        #expect(FixedPoint.exact(13.40500001) == nil)
        #expect(FixedPoint.exact(1e-8) == nil)
        #expect(FixedPoint.exact(0.1 + 0.2) == nil)   // 0.30000000000000004, not the double of 0.3
    }

    @Test func regionsReadBackAsTheSameDoubles() throws {
        var index = try RegionIndex(regions: Self.mixed)
        let added = Self.rounded(TestRegions.city(count: 40, seed: 29, prefix: "a")[7...].first { if case .polygon = $0.shape { true } else { false } }!)
        try index.add(added)
        for region in Self.mixed + [added] {
            #expect(index.region(try #require(index.handle(forID: region.id))) == region, "\(region.id)")
        }
        let store = index.store
        let doubleParts = store.partFirstStored.filter { !$0.isFixedPoint }.count
        #expect(doubleParts > 100 && doubleParts < store.partFirstStored.count - 100, "both storages in use")
    }

    @Test func aPartWithMoreDecimalsFallsBackToDoubles() throws {
        let exact = [(13.399, 52.499), (13.401, 52.499), (13.401, 52.501), (13.399, 52.501), (13.399, 52.499)]
            .map { Coordinate(latitude: $0.1, longitude: $0.0) }
        let inexact = TestRegions.square(13.41000000123, 52.50000000456, half: 0.00100000007)
        let region = Region(id: "m", shape: .polygon(MultiPolygon(polygons: [[exact], [inexact]])))
        let index = try RegionIndex(regions: [region])
        let store = index.store
        #expect(store.partFirstStored.map(\.isFixedPoint) == [true, false])
        #expect(store.fixedCoordinates.count == 10 && store.coordinates.count == 10)
        #expect(index.region(index.handle(forID: "m")!) == region)
        let oracle = GEOSOracle([region])
        var rng = SeededGenerator(seed: 43)
        for _ in 0..<20_000 {
            let p = Coordinate(latitude: 52.5 + Double.random(in: -0.0015...0.0015, using: &rng),
                               longitude: 13.405 + Double.random(in: -0.0075...0.0075, using: &rng))
            #expect(index.regions(containing: p).isEmpty != oracle.contains(0, p), "\(p)")
            #expect(index.regions(containing: p).isEmpty != Self.doubleContains(region, p), "\(p)")
        }
    }

    /// Points a hair off edges (down to exactly on them), on vertices and on vertices' latitudes: the
    /// integer comparisons with the point's thresholds must decide as the comparisons of doubles do.
    @Test func containmentNextToEdgesMatchesTheDoubleTest() throws {
        let regions = (TestRegions.city(count: 300, seed: 47).map(Self.rounded) + Self.largeStars(count: 4, seed: 53))
            .filter { if case .polygon = $0.shape { true } else { false } }
        let index = try RegionIndex(regions: regions)
        #expect(index.store.partFirstStored.allSatisfy { $0.isFixedPoint })
        var rng = SeededGenerator(seed: 59)
        var checked = 0, inside = 0
        for region in regions {
            let handle = index.handle(forID: region.id)!
            guard case let .polygon(mp) = region.shape else { continue }
            for ring in mp.polygons.joined() {
                for _ in 0..<min(40, ring.count) {
                    let e = Int.random(in: 0..<(ring.count - 1), using: &rng)
                    let a = ring[e], b = ring[e + 1]
                    let t = Double.random(in: 0...1, using: &rng)
                    let dx = b.longitude - a.longitude, dy = b.latitude - a.latitude
                    let length = (dx * dx + dy * dy).squareRoot()
                    let offset = [0, 1e-13, -1e-13, 1e-11, -1e-11, 1e-9, -1e-9].randomElement(using: &rng)!
                    var points = [
                        Coordinate(latitude: a.latitude + t * dy + offset * dx / length, longitude: a.longitude + t * dx - offset * dy / length),
                        a,
                        Coordinate(latitude: a.latitude, longitude: a.longitude.nextUp),
                        Coordinate(latitude: a.latitude, longitude: a.longitude.nextDown),
                        Coordinate(latitude: a.latitude.nextUp, longitude: a.longitude),
                        Coordinate(latitude: a.latitude.nextDown, longitude: a.longitude),
                    ]
                    for d in [1e-9, -1e-9, 1e-12] {
                        points.append(Coordinate(latitude: a.latitude, longitude: a.longitude + d))
                        points.append(Coordinate(latitude: a.latitude, longitude: a.longitude + t * dx + d))
                    }
                    for p in points {
                        let want = Self.doubleContains(region, p)
                        #expect(index.contains(handle, p) == want, "\(region.id) at \(p.latitude),\(p.longitude)")
                        #expect(index.regions(containing: p).contains(handle) == want, "\(region.id) at \(p.latitude),\(p.longitude)")
                        checked += 1
                        if want { inside += 1 }
                    }
                }
            }
        }
        #expect(checked > 20_000 && inside > checked / 5, "\(checked) points, \(inside) inside")
    }

    @Test func sameAnswersAsGEOSWithBothStorages() throws {
        let index = try RegionIndex(regions: Self.mixed)
        let handles = Self.mixed.map { index.handle(forID: $0.id)! }
        let points = RegionIndexOracleTests.queryPoints(Self.mixed, count: 40_000, seed: 61)
        let hit = RegionIndexOracleTests.compare(index, handles: handles, Self.mixed, points: points)
        #expect(hit > 5_000)
    }

    /// The masked crossing test sorts edges four at a time with SSE2 (`fixed_edges_crossing`), one by one
    /// where a group would read past the stored vertices: the same sorting as edge by edge, also with
    /// thresholds equal to vertex values and at the ends of the 32-bit range.
    @Test func edgesSortedFourAtATimeAreSortedAsOneByOne() {
        var rng = SeededGenerator(seed: 29)
        let far: [Int32] = [-2_147_483_000, -1, 0, 1, 2_147_483_000]
        for trial in 0..<4000 {
            let vertices = Int.random(in: 2...65, using: &rng), edges = vertices - 1
            let value = { (rng: inout SeededGenerator) -> Int32 in
                trial % 4 == 0 ? far.randomElement(using: &rng)! : Int32.random(in: -6...6, using: &rng)
            }
            var xy = (0..<2 * vertices).map { _ in value(&rng) }
            let every: UInt64 = edges == 64 ? .max : (1 << UInt64(edges)) - 1
            let mask = trial % 2 == 0 ? every : UInt64.random(in: 0...UInt64.max, using: &rng) & every
            let qx = trial % 8 == 0 ? Int32.max : value(&rng), qy = trial % 8 == 4 ? Int32.min : value(&rng)
            var crossing: UInt64 = 0, straddling: UInt64 = 0
            for i in 0..<edges where mask >> UInt64(i) & 1 == 1 {
                let x0 = xy[2 * i], y0 = xy[2 * i + 1], x1 = xy[2 * i + 2], y1 = xy[2 * i + 3]
                guard (y0 > qy) != (y1 > qy) else { continue }
                if x0 > qx && x1 > qx { crossing |= 1 << UInt64(i) } else if (x0 > qx) != (x1 > qx) { straddling |= 1 << UInt64(i) }
            }
            // Exactly the part's vertices, so the last groups go one by one; then with room after them.
            for padding in [0, 4] {
                xy += [Int32](repeating: 99, count: 2 * padding)
                var gotStraddling: UInt64 = 0
                let got = xy.withUnsafeBufferPointer {
                    fixed_edges_crossing($0.baseAddress!, mask, Int64(vertices + padding), qx, qy, &gotStraddling)
                }
                #expect(got == crossing && gotStraddling == straddling, "trial \(trial), padding \(padding)")
            }
        }
    }
}
