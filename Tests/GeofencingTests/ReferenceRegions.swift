import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

/// A brute-force `RegionQuerying` for tests: every query scans every region with the plainest geometry
/// that follows the contract (geodesic distance for circles, even-odd ray casting for polygons), so it can
/// stand as the oracle for the monitor and for faster indexes.
struct ReferenceRegions: RegionQuerying {
    let regions: [Region]

    init(_ regions: [Region]) {
        self.regions = regions
    }

    func forEachRegion(containing point: Coordinate, _ body: (RegionHandle) -> Void) {
        for handle in handles where contains(handle, point) { body(handle) }
    }

    func forEachRegion(within distance: Double, of point: Coordinate, _ body: (RegionHandle) -> Void) {
        for handle in handles where signedDistance(from: point, to: handle) <= distance { body(handle) }
    }

    func forEachRegion(crossedBy a: Coordinate, _ b: Coordinate, _ body: (RegionHandle) -> Void) {
        for handle in handles where crosses(handle, a, b) { body(handle) }
    }

    func signedDistance(from point: Coordinate, to region: RegionHandle) -> Double {
        switch regions[Int(region.slot.rawValue)].shape {
        case .circle(let center, let radius):
            return Geodesy.distance(center, point) - radius
        case .polygon(let shape):
            let d = Self.boundaryDistance(shape, point)
            return Self.evenOdd(shape, point) ? -d : max(d, .leastNonzeroMagnitude)
        case .beacon:
            return .infinity
        }
    }

    func contains(_ region: RegionHandle, _ point: Coordinate) -> Bool {
        switch regions[Int(region.slot.rawValue)].shape {
        case .circle(let center, let radius): Geodesy.distance(center, point) <= radius
        case .polygon(let shape): Self.evenOdd(shape, point)
        case .beacon: false
        }
    }

    func attributes(of region: RegionHandle) -> RegionAttributes {
        let r = regions[Int(region.slot.rawValue)]
        return RegionAttributes(id: r.id, notifyOnEntry: r.notifyOnEntry, notifyOnExit: r.notifyOnExit, dwell: r.dwell)
    }

    private var handles: [RegionHandle] { regions.indices.map(Self.handle) }

    /// The handle of the region at `number` in the list given.
    static func handle(_ number: Int) -> RegionHandle { RegionHandle(slot: RegionSlot(UInt32(number)), store: 0) }

    private func crosses(_ region: RegionHandle, _ a: Coordinate, _ b: Coordinate) -> Bool {
        if contains(region, a) || contains(region, b) { return true }
        switch regions[Int(region.slot.rawValue)].shape {
        case .circle(let center, let radius):
            // Metres in a plane tangent at the centre: fine for the few-kilometre segments tests use.
            return Self.segmentDistance(Self.local(center, a), Self.local(center, b)) <= radius
        case .polygon(let shape):
            return Self.edges(shape).contains { Self.segmentsIntersect(a, b, $0.0, $0.1) }
        case .beacon:
            return false
        }
    }

    /// Even-odd over every ring of every part: holes and separate parts need no special case.
    static func evenOdd(_ shape: MultiPolygon, _ p: Coordinate) -> Bool {
        var inside = false
        for (a, b) in edges(shape) where (a.latitude > p.latitude) != (b.latitude > p.latitude) {
            let crossing = a.longitude + (p.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
            if p.longitude < crossing { inside.toggle() }
        }
        return inside
    }

    static func edges(_ shape: MultiPolygon) -> [(Coordinate, Coordinate)] {
        shape.polygons.flatMap { $0 }.flatMap { ring in zip(ring, ring.dropFirst()).map { ($0, $1) } }
    }

    static func boundaryDistance(_ shape: MultiPolygon, _ p: Coordinate) -> Double {
        edges(shape).map { segmentDistance(local(p, $0.0), local(p, $0.1)) }.min() ?? .infinity
    }

    /// East and north metres of `q` from `origin`.
    static func local(_ origin: Coordinate, _ q: Coordinate) -> (x: Double, y: Double) {
        let scale = Geodesy.metresPerDegree(atLatitude: origin.latitude)
        return (Geodesy.normalizedLongitudeDelta(q.longitude - origin.longitude) * scale.longitude,
                (q.latitude - origin.latitude) * scale.latitude)
    }

    /// Distance from the origin to the segment a–b.
    static func segmentDistance(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared == 0 ? 0 : min(1, max(0, -(a.x * dx + a.y * dy) / lengthSquared))
        let x = a.x + t * dx, y = a.y + t * dy
        return (x * x + y * y).squareRoot()
    }

    static func segmentsIntersect(_ p1: Coordinate, _ p2: Coordinate, _ q1: Coordinate, _ q2: Coordinate) -> Bool {
        func orientation(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Double {
            (b.longitude - a.longitude) * (c.latitude - a.latitude) - (b.latitude - a.latitude) * (c.longitude - a.longitude)
        }
        let d1 = orientation(q1, q2, p1), d2 = orientation(q1, q2, p2)
        let d3 = orientation(p1, p2, q1), d4 = orientation(p1, p2, q2)
        return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0)
    }
}
