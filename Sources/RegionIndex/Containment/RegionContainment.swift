import GeoWakeCore

extension RegionStore.Circle {
    /// Whether the local flat metric may decide: small circles away from the poles, where its error
    /// (mostly the change of the longitude scale across the circle, ~tan(lat)·r/R) is bounded below.
    var allowsLocalMetric: Bool { radius <= 100_000 && abs(latitude) <= 80 }

    /// A bound on |local distance − geodesic distance| near the boundary: tan(80°) < 6, so 6·r/R relative,
    /// doubled, plus the float scales' rounding, plus a millimetre.
    var localMetricMargin: Double { radius * (radius * 2e-6 + 2e-6) + 0.001 }

    /// Inside when the WGS84 geodesic distance is at most the radius; Vincenty only near the boundary
    /// (or for large and polar circles, whose bounds make every case go to Vincenty).
    @inline(__always)
    func contains(longitude: Double, latitude: Double) -> Bool {
        var dLon = longitude - self.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let dx = dLon * Double(metresPerDegreeLongitude), dy = (latitude - self.latitude) * Double(metresPerDegreeLatitude)
        let d2 = dx * dx + dy * dy
        if d2 > Double(surelyOutside2) { return false }
        if d2 < Double(surelyInside2) { return true }
        return geodesicDistance(longitude: longitude, latitude: latitude) <= radius
    }

    func geodesicDistance(longitude: Double, latitude: Double) -> Double {
        Geodesy.distance(Coordinate(latitude: self.latitude, longitude: self.longitude),
                         Coordinate(latitude: latitude, longitude: longitude))
    }

    /// Distance to the centre for measuring how far a point is from the edge (gating, hysteresis), not for
    /// deciding containment. Within 6 km of the centre and below 70° of latitude the local metric stays
    /// within millimetres of the geodesic (its error grows with distance and latitude) at a fraction of
    /// Vincenty's cost; the monitor asks this for every candidate of every fix.
    func boundaryMetric(longitude: Double, latitude: Double) -> Double {
        let centre = Coordinate(latitude: self.latitude, longitude: self.longitude)
        let point = Coordinate(latitude: latitude, longitude: longitude)
        if abs(latitude) < 70, abs(self.latitude) < 70 {
            let local = Geodesy.localDistance(centre, point)
            if local < 6_000 { return local }
        }
        return Geodesy.distance(centre, point)
    }
}

extension RegionStore {
    /// Whether any part of polygon p contains the point. Parts of a valid MultiPolygon have disjoint
    /// interiors, and each part's holes lie inside its shell, so per-part parity is exact; points on the
    /// boundary may go either way.
    func polygonContains(_ p: Int, x: Double, y: Double) -> Bool {
        for part in Int(polygonPartStart[p])..<Int(polygonPartStart[p + 1]) where partContains(part, x: x, y: y) {
            return true
        }
        return false
    }

    /// The shape of a slot's circle, or of its polygon's part number `part` (counted within the polygon).
    @inline(__always)
    func shapeReference(ofSlot slot: RegionSlot, part: Int) -> ShapeReference {
        let shape = Int(shapeIndex[slot.index])
        if kinds[slot.index] == .polygon { return ShapeReference(part: Int(polygonPartStart[shape]) + part) }
        return ShapeReference(circle: shape)
    }

    @inline(__always)
    func slot(ofShape reference: ShapeReference) -> RegionSlot {
        reference.isCircle ? circles[reference.circleNumber].slot : partSlots[reference.partNumber]
    }

    /// The slot of the shape if it contains the point. Removed regions' shapes contain nothing (see
    /// `remove`), so a query reads only the shape's own record, never the per-slot arrays.
    @inline(__always)
    func containingSlot(shape reference: ShapeReference, longitude: Double, latitude: Double) -> RegionSlot? {
        if reference.isCircle {
            let circle = circles[reference.circleNumber]
            return circle.contains(longitude: longitude, latitude: latitude) ? circle.slot : nil
        }
        let part = reference.partNumber
        return partContains(part, x: longitude, y: latitude) ? partHeaders[part].slot : nil
    }

    /// Exact containment for a slot (false for beacons and removed slots).
    @inline(__always)
    func contains(slot: RegionSlot, longitude: Double, latitude: Double) -> Bool {
        switch kinds[slot.index] {
        case .circle: return circles[Int(shapeIndex[slot.index])].contains(longitude: longitude, latitude: latitude)
        case .polygon: return polygonContains(Int(shapeIndex[slot.index]), x: longitude, y: latitude)
        case .beacon, .removed: return false
        }
    }
}
