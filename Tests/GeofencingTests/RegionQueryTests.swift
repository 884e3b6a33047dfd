import Testing
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

/// The monitor's other questions: nearby regions, signed distances, segment crossings.
@Suite struct RegionQueryTests {
    static let regions = TestRegions.city(count: 1500, seed: 23) + TestRegions.awkwardCircles
    static let index = try! RegionIndex(regions: regions)

    static func points(_ count: Int, seed: UInt64) -> [Coordinate] {
        RegionIndexOracleTests.queryPoints(regions, count: count, seed: seed)
    }

    @Test func withinDistanceReportsEveryRegionTheOracleFindsNear() {
        let oracle = GEOSOracle(Self.regions)
        let handles = Self.regions.map { Self.index.handle(forID: $0.id)! }
        // A rough reach per region (centre or first vertex, and the farthest point from it) skips the far ones.
        let reach: [(Coordinate, Double)] = Self.regions.map { region in
            switch region.shape {
            case let .circle(c, r): return (c, r)
            case let .polygon(mp):
                let first = mp.polygons[0][0][0]
                return (first, mp.polygons.joined().joined().map { Geodesy.sphericalDistance(first, $0) }.max()! * 1.01)
            case .beacon: return (Coordinate(latitude: 0, longitude: 0), -.infinity)
            }
        }
        var missing: [String] = []
        var found = 0
        for (k, p) in Self.points(1500, seed: 31).enumerated() {
            let distance = [0.0, 5, 50, 400][k % 4]
            var got = Set<RegionHandle>()
            Self.index.forEachRegion(within: distance, of: p) { #expect(got.insert($0).inserted, "reported twice") }
            found += got.count
            for (i, region) in Self.regions.enumerated()
            where Geodesy.sphericalDistance(reach[i].0, p) < reach[i].1 * 1.01 + distance + 10
                && (oracle.contains(i, p) || oracle.boundaryDistance(i, p) < distance * 0.999 - 0.001) {
                if !got.contains(handles[i]) { missing.append("\(region.id) within \(distance) of \(p)") }
            }
        }
        #expect(missing.count == 0, "\(missing.prefix(5))")
        #expect(found > 500)
    }

    @Test func signedDistanceSignAlwaysAgreesWithContains() {
        for p in Self.points(4000, seed: 37) {
            Self.index.forEachRegion(within: 500, of: p) { h in
                let d = Self.index.signedDistance(from: p, to: h)
                #expect(Self.index.contains(h, p) == (d <= 0), "\(Self.index.attributes(of: h).id) at \(p): \(d)")
            }
        }
    }

    /// The monitor takes each region's signed distance from the within-distance query instead of asking again.
    @Test func measuredWithinDistanceGivesEachRegionsSignedDistance() {
        var reported = 0
        for p in Self.points(2000, seed: 59) {
            Self.index.forEachRegionMeasured(within: 200, of: p) { h, d in
                reported += 1
                #expect(d == Self.index.signedDistance(from: p, to: h), "\(Self.index.attributes(of: h).id) at \(p)")
            }
        }
        #expect(reported > 500)
    }

    @Test func signedDistanceIsMetresToTheBoundary() throws {
        let index = try RegionIndex(regions: [
            Region.circle(id: "c", latitude: 52.5, longitude: 13.4, radius: 100),
            Region(id: "sq", shape: .polygon(MultiPolygon(polygons: [[TestRegions.square(13.5, 52.5, half: 0.01)]]))),
        ])
        let c = index.handle(forID: "c")!, sq = index.handle(forID: "sq")!
        let centre = Coordinate(latitude: 52.5, longitude: 13.4)
        #expect(abs(index.signedDistance(from: centre, to: c) + 100) < 0.001)
        let outside = Geodesy.destination(from: centre, bearing: 60, distance: 130)
        #expect(abs(index.signedDistance(from: outside, to: c) - 30) < 0.001)
        let metresPerDegree = Geodesy.metresPerDegree(atLatitude: 52.5)
        let inSquare = Coordinate(latitude: 52.5, longitude: 13.5)
        // The nearest sides are the east and west ones, 0.01° of longitude away.
        #expect(abs(index.signedDistance(from: inSquare, to: sq) + 0.01 * metresPerDegree.longitude) < 1)
    }

    @Test func circleSignedDistanceStaysWithinMillimetresOfTheGeodesic() throws {
        var rng = SeededGenerator(seed: 41)
        var regions: [Region] = []
        for k in 0..<300 {
            let latitude = -79 + 158 * Double.random(in: 0..<1, using: &rng), longitude = -180 + 360 * Double.random(in: 0..<1, using: &rng)
            let radius = k % 3 == 0 ? 5_000.0 : 20 + 2_000 * Double.random(in: 0..<1, using: &rng)
            regions.append(.circle(id: "c\(k)", latitude: latitude, longitude: longitude, radius: radius))
        }
        let index = try RegionIndex(regions: regions)
        var worst = 0.0
        for region in regions {
            guard case let .circle(centre, radius) = region.shape else { continue }
            let handle = try #require(index.handle(forID: region.id))
            for _ in 0..<20 {
                let point = Geodesy.destination(from: centre, bearing: 360 * Double.random(in: 0..<1, using: &rng), distance: 3 * radius * Double.random(in: 0..<1, using: &rng))
                let exact = Geodesy.distance(centre, point) - radius
                worst = max(worst, abs(abs(index.signedDistance(from: point, to: handle)) - abs(exact)))
            }
        }
        #expect(worst < 0.005, "worst difference \(worst) m")
    }

    @Test func segmentCrossingFindsRegionsBetweenItsEnds() throws {
        let index = try RegionIndex(regions: [
            Region.circle(id: "c", latitude: 52.5, longitude: 13.4, radius: 100),
            Region(id: "sq", shape: .polygon(MultiPolygon(polygons: [[TestRegions.square(13.5, 52.5, half: 0.001)]]))),
        ])
        func crossed(_ a: (Double, Double), _ b: (Double, Double)) -> [String] {
            var ids: [String] = []
            index.forEachRegion(crossedBy: Coordinate(latitude: a.1, longitude: a.0), Coordinate(latitude: b.1, longitude: b.0)) {
                ids.append(index.attributes(of: $0).id)
            }
            return ids.sorted()
        }
        #expect(crossed((13.39, 52.5), (13.41, 52.5)) == ["c"])
        #expect(crossed((13.39, 52.5), (13.51, 52.5)) == ["c", "sq"])
        #expect(crossed((13.39, 52.502), (13.51, 52.502)) == [])
        #expect(crossed((13.4995, 52.4995), (13.4996, 52.4996)) == ["sq"])
    }
}
