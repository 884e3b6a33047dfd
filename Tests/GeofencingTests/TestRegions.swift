#if canImport(Glibc)
import Glibc
#endif
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions
import TestSupport

/// Region sets like make_regions.py's (circles and star-shaped polygons around a centre), plus the shapes
/// that break naive code: polygons with holes, MultiPolygons, circles across the antimeridian and at the poles.
enum TestRegions {
    static func star(center: Coordinate, radius: Double, vertices: Int, rng: inout SeededGenerator) -> [Coordinate] {
        var angles = (0..<vertices).map { _ in Double.random(in: 0.2...1.2, using: &rng) }
        let total = angles.reduce(0, +)
        var a = Double.random(in: 0..<360, using: &rng)
        for i in angles.indices { let step = 360 * angles[i] / total; angles[i] = a; a += step }
        var ring = angles.map { Geodesy.destination(from: center, bearing: $0, distance: radius * Double.random(in: 0.45...1, using: &rng)) }
        ring.reverse()   // bearings turn clockwise; reversed, the shell is counter-clockwise
        ring.append(ring[0])
        return ring
    }

    /// A square ring (counter-clockwise unless `clockwise`) of half-side `half` degrees.
    static func square(_ lon: Double, _ lat: Double, half: Double, clockwise: Bool = false) -> [Coordinate] {
        let ring = [(lon - half, lat - half), (lon + half, lat - half), (lon + half, lat + half), (lon - half, lat + half), (lon - half, lat - half)]
            .map { Coordinate(latitude: $0.1, longitude: $0.0) }
        return clockwise ? ring.reversed() : ring
    }

    static func city(count: Int, seed: UInt64, center: Coordinate = Coordinate(latitude: 52.52, longitude: 13.40),
                     spanDegrees: Double = 0.3, prefix: String = "r") -> [Region] {
        var rng = SeededGenerator(seed: seed)
        var regions: [Region] = []
        for i in 0..<count {
            let c = Coordinate(latitude: center.latitude + Double.random(in: -spanDegrees...spanDegrees, using: &rng) / 2,
                               longitude: center.longitude + Double.random(in: -spanDegrees...spanDegrees, using: &rng))
            let id = "\(prefix)\(i)"
            let size = 30 * pow(40, Double.random(in: 0...1, using: &rng) * Double.random(in: 0...1, using: &rng))
            switch Int.random(in: 0..<20, using: &rng) {
            case 0..<11:
                regions.append(Region(id: id, shape: .circle(center: c, radius: size)))
            case 11..<18:
                let ring = star(center: c, radius: size, vertices: Int.random(in: 6...64, using: &rng), rng: &rng)
                regions.append(Region(id: id, shape: .polygon(MultiPolygon(polygons: [[ring]]))))
            case 18:
                let half = size / 111_000
                let shell = square(c.longitude, c.latitude, half: half * 2)
                let hole = square(c.longitude, c.latitude, half: half, clockwise: true)
                regions.append(Region(id: id, shape: .polygon(MultiPolygon(polygons: [[shell, hole]]))))
            default:
                let half = size / 111_000
                let west = [square(c.longitude - 3 * half, c.latitude, half: half)]
                let east = [square(c.longitude + 3 * half, c.latitude, half: half)]
                regions.append(Region(id: id, shape: .polygon(MultiPolygon(polygons: [west, east]))))
            }
        }
        return regions
    }

    /// Circles that straddle the antimeridian or cover a pole.
    static let awkwardCircles: [Region] = [
        Region(id: "fiji", shape: .circle(center: Coordinate(latitude: -16.5, longitude: 179.999), radius: 5_000)),
        Region(id: "chukotka", shape: .circle(center: Coordinate(latitude: 65.0, longitude: -179.98), radius: 20_000)),
        Region(id: "north-pole", shape: .circle(center: Coordinate(latitude: 89.9, longitude: 30), radius: 30_000)),
        Region(id: "south-pole", shape: .circle(center: Coordinate(latitude: -90, longitude: 0), radius: 50_000)),
    ]
}

