#if canImport(Glibc)
import Glibc
#endif
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions

/// The reference answer for "which regions contain this point", independent of `RegionIndex`: Vincenty
/// for circles, GEOS prepared geometry for polygons, candidates from a plain grid of generous boxes.
final class GEOSOracle {
    private let geos = GEOSContext()
    private let regions: [Region]
    private var prepared: [OpaquePointer?] = []
    private var geometries: [OpaquePointer?] = []
    private var grid: [Int64: [Int]] = [:]
    /// Regions too large for the grid or across the antimeridian: always tested.
    private var everywhere: [Int] = []
    private let cell = 0.05

    init(_ regions: [Region]) {
        self.regions = regions
        for (i, region) in regions.enumerated() {
            var geometry: OpaquePointer?
            if case let .polygon(mp) = region.shape {
                var xy: [Double] = [], ringEnds: [Int] = [], polygonEnds: [Int] = []
                for polygon in mp.polygons {
                    for ring in polygon {
                        for c in ring { xy.append(c.longitude); xy.append(c.latitude) }
                        ringEnds.append(xy.count / 2)
                    }
                    polygonEnds.append(ringEnds.count)
                }
                geometry = xy.withUnsafeBufferPointer {
                    geos.makeMultiPolygon(coordinates: $0, ringEnds: ringEnds[...], polygonEnds: polygonEnds[...])
                }
            }
            geometries.append(geometry)
            prepared.append(geometry.flatMap { geos.prepare($0) })
            let (west, south, east, north) = Self.roughBox(region)
            if east - west > 1 || north - south > 1 || west < -180 || east > 180 {
                everywhere.append(i)
                continue
            }
            for x in Int((west / cell).rounded(.down))...Int((east / cell).rounded(.down)) {
                for y in Int((south / cell).rounded(.down))...Int((north / cell).rounded(.down)) {
                    grid[Int64(x) << 32 | Int64(y & 0xFFFF_FFFF), default: []].append(i)
                }
            }
        }
    }

    deinit {
        for p in prepared { if let p { geos.destroyPrepared(p) } }
        for g in geometries { if let g { geos.destroy(g) } }
    }

    /// Generous: 1.5× a spherical estimate for circles, vertex extremes for polygons.
    private static func roughBox(_ region: Region) -> (Double, Double, Double, Double) {
        switch region.shape {
        case let .circle(c, r):
            let dLat = 1.5 * r / 111_000
            let reach = min(89.99, abs(c.latitude) + dLat)
            let dLon = 1.5 * r / (111_000 * cos(reach * .pi / 180))
            return (c.longitude - dLon, c.latitude - dLat, c.longitude + dLon, c.latitude + dLat)
        case let .polygon(mp):
            let all = mp.polygons.joined().joined()
            return (all.map(\.longitude).min()!, all.map(\.latitude).min()!, all.map(\.longitude).max()!, all.map(\.latitude).max()!)
        case .beacon:
            return (1, 1, -1, -1)
        }
    }

    func contains(_ i: Int, _ p: Coordinate) -> Bool {
        switch regions[i].shape {
        case let .circle(c, r): return Geodesy.distance(c, p) <= r
        case .polygon: return geos.intersects(prepared[i]!, longitude: p.longitude, latitude: p.latitude)
        case .beacon: return false
        }
    }

    /// Indices (into the regions given) of every region containing `p`, ascending.
    func regions(containing p: Coordinate) -> [Int] {
        let key = Int64(Int((p.longitude / cell).rounded(.down))) << 32 | Int64(Int((p.latitude / cell).rounded(.down)) & 0xFFFF_FFFF)
        return ((grid[key] ?? []) + everywhere).filter { contains($0, p) }.sorted()
    }

    /// Metres from `p` to the region's boundary (local flat metric for polygons), for the 1 mm exception.
    func boundaryDistance(_ i: Int, _ p: Coordinate) -> Double {
        switch regions[i].shape {
        case let .circle(c, r): return abs(Geodesy.distance(c, p) - r)
        case let .polygon(mp):
            let k = Geodesy.metresPerDegree(atLatitude: p.latitude)
            var best = Double.infinity
            for ring in mp.polygons.joined() {
                for (a, b) in zip(ring, ring.dropFirst()) {
                    let ax = (a.longitude - p.longitude) * k.longitude, ay = (a.latitude - p.latitude) * k.latitude
                    let bx = (b.longitude - p.longitude) * k.longitude, by = (b.latitude - p.latitude) * k.latitude
                    let dx = bx - ax, dy = by - ay
                    let t = max(0, min(1, -(ax * dx + ay * dy) / max(dx * dx + dy * dy, 1e-300)))
                    best = min(best, ((ax + t * dx) * (ax + t * dx) + (ay + t * dy) * (ay + t * dy)).squareRoot())
                }
            }
            return best
        case .beacon: return .infinity
        }
    }
}
