import GeoWakeCore

/// Distances to boundaries and segment crossings, for the monitor's hysteresis, accuracy gating and
/// crossing detection. Polygon distances are in a local flat metric at the point (metres; within a few
/// parts per thousand for boundaries kilometres away), circle distances are geodesic.
extension RegionStore {
    /// Metres from the point to the slot's boundary, unsigned; infinity for beacons and removed slots.
    func boundaryDistance(slot: RegionSlot, longitude: Double, latitude: Double) -> Double {
        let scale = kinds[slot.index] == .polygon ? Geodesy.metresPerDegree(atLatitude: latitude) : (0, 0)
        return boundaryDistance(slot: slot, longitude: longitude, latitude: latitude, scale: scale)
    }

    /// `boundaryDistance(slot:longitude:latitude:)` given the polygon metric's scale at the point,
    /// `Geodesy.metresPerDegree(atLatitude: latitude)`: a query that measures every region near one point
    /// computes it once, not once a polygon (its sine and cosine were a fifth of a small polygon's cost).
    func boundaryDistance(slot: RegionSlot, longitude: Double, latitude: Double,
                          scale: (latitude: Double, longitude: Double)) -> Double {
        switch kinds[slot.index] {
        case .circle:
            let c = circles[Int(shapeIndex[slot.index])]
            return abs(c.boundaryMetric(longitude: longitude, latitude: latitude) - c.radius)
        case .polygon:
            // The nearest edge by squared distance, and one square root: a root per edge put its latency on
            // the loop's critical path (a third of this function's samples). Roots are correctly rounded,
            // hence monotonic, so the root of the least square is exactly the least root.
            var best = Double.infinity
            let p = Int(shapeIndex[slot.index])
            for part in Int(polygonPartStart[p])..<Int(polygonPartStart[p + 1]) {
                lowerBoundaryDistanceSquared(&best, part: part, x: longitude, y: latitude, scale: scale)
            }
            return best.squareRoot()
        case .beacon, .removed:
            return .infinity
        }
    }

    /// Distance from (0, 0) to the segment a–b in the plane.
    static func originDistance(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        originDistanceSquared(ax, ay, bx, by).squareRoot()
    }

    @inline(__always)
    static func originDistanceSquared(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        var t = length2 > 0 ? -(ax * dx + ay * dy) / length2 : 0
        t = min(1, max(0, t))
        let px = ax + t * dx, py = ay + t * dy
        return px * px + py * py
    }

    func forEachEdge(ofPolygon p: Int, _ body: (Double, Double, Double, Double) -> Void) {
        for part in Int(polygonPartStart[p])..<Int(polygonPartStart[p + 1]) {
            forEachEdge(ofPart: part) { _, x0, y0, x1, y1 in body(x0, y0, x1, y1) }
        }
    }

    /// Whether the planar lon/lat segment a–b passes through the slot's region.
    func segmentCrosses(slot: RegionSlot, _ a: Coordinate, _ b: Coordinate) -> Bool {
        switch kinds[slot.index] {
        case .circle:
            let c = circles[Int(shapeIndex[slot.index])]
            if c.contains(longitude: a.longitude, latitude: a.latitude) || c.contains(longitude: b.longitude, latitude: b.latitude) {
                return true
            }
            // Closest approach in the circle's local metric, longitudes taken relative to the centre.
            let kx = Double(c.metresPerDegreeLongitude), ky = Double(c.metresPerDegreeLatitude)
            let ax = Geodesy.normalizedLongitudeDelta(a.longitude - c.longitude) * kx, ay = (a.latitude - c.latitude) * ky
            let bx = ax + (b.longitude - a.longitude) * kx, by = (b.latitude - c.latitude) * ky
            return Self.originDistance(ax, ay, bx, by) <= c.radius
        case .polygon:
            let p = Int(shapeIndex[slot.index])
            if polygonContains(p, x: a.longitude, y: a.latitude) || polygonContains(p, x: b.longitude, y: b.latitude) {
                return true
            }
            var crosses = false
            forEachEdge(ofPolygon: p) { x0, y0, x1, y1 in
                if !crosses && Self.segmentsIntersect(a.longitude, a.latitude, b.longitude, b.latitude, x0, y0, x1, y1) {
                    crosses = true
                }
            }
            return crosses
        case .beacon, .removed:
            return false
        }
    }

    static func segmentsIntersect(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                  _ cx: Double, _ cy: Double, _ dx: Double, _ dy: Double) -> Bool {
        func orient(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double, _ rx: Double, _ ry: Double) -> Double {
            (qx - px) * (ry - py) - (qy - py) * (rx - px)
        }
        let d1 = orient(cx, cy, dx, dy, ax, ay), d2 = orient(cx, cy, dx, dy, bx, by)
        let d3 = orient(ax, ay, bx, by, cx, cy), d4 = orient(ax, ay, bx, by, dx, dy)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        func onSegment(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double, _ rx: Double, _ ry: Double) -> Bool {
            min(px, qx) <= rx && rx <= max(px, qx) && min(py, qy) <= ry && ry <= max(py, qy)
        }
        return (d1 == 0 && onSegment(cx, cy, dx, dy, ax, ay)) || (d2 == 0 && onSegment(cx, cy, dx, dy, bx, by))
            || (d3 == 0 && onSegment(ax, ay, bx, by, cx, cy)) || (d4 == 0 && onSegment(ax, ay, bx, by, dx, dy))
    }
}
