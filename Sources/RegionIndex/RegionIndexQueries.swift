import GeoWakeCore

extension RegionIndex: RegionQuerying {
    public func forEachRegion(within distance: Double, of point: Coordinate, _ body: (RegionHandle) -> Void) {
        forEachRegionMeasured(within: distance, of: point) { handle, _ in body(handle) }
    }

    /// The regions within `distance` of the point, each with its signed distance (negative inside): the
    /// monitor needs both, and the query has measured them already.
    public func forEachRegionMeasured(within distance: Double, of point: Coordinate, _ body: (RegionHandle, Double) -> Void) {
        guard let (x, y) = Self.normalized(point), distance.isFinite else { return }
        let reach = max(0, distance)
        let scale = Geodesy.metresPerDegree(atLatitude: y)
        for slot in candidates(around: x, y, reach) {
            let inside = store.contains(slot: slot, longitude: x, latitude: y)
            let d = store.boundaryDistance(slot: slot, longitude: x, latitude: y, scale: scale)
            if inside || d <= reach * 1.001 + 0.001 {
                body(store.handle(slot: slot), Self.signed(d, inside: inside))
            }
        }
    }

    public func forEachRegion(crossedBy a: Coordinate, _ b: Coordinate, _ body: (RegionHandle) -> Void) {
        guard a.isValid, b.isValid else { return }
        var slots: [RegionSlot] = []
        forEachCandidate(minX: min(a.longitude, b.longitude), minY: min(a.latitude, b.latitude),
                         maxX: max(a.longitude, b.longitude), maxY: max(a.latitude, b.latitude)) {
            slots.append(store.slot(ofShape: $0))
        }
        for slot in Self.unique(&slots) where store.segmentCrosses(slot: slot, a, b) {
            body(store.handle(slot: slot))
        }
    }

    public func signedDistance(from point: Coordinate, to region: RegionHandle) -> Double {
        let slot = store.checkedSlot(region)
        guard let (x, y) = Self.normalized(point) else { return .infinity }
        return Self.signed(store.boundaryDistance(slot: slot, longitude: x, latitude: y),
                           inside: store.contains(slot: slot, longitude: x, latitude: y))
    }

    /// The boundary distance alone, signed by the caller's containment: the monitor measures only regions a
    /// containment query has just placed the point in or out of, and repeating that test cost it a third of
    /// each measurement.
    public func signedDistance(from point: Coordinate, to region: RegionHandle, inside: Bool) -> Double {
        let slot = store.checkedSlot(region)
        guard let (x, y) = Self.normalized(point) else { return .infinity }
        return Self.signed(store.boundaryDistance(slot: slot, longitude: x, latitude: y), inside: inside)
    }

    /// A boundary distance signed by containment: the sign comes from `contains` itself, so the two never
    /// disagree, even on the boundary.
    @inline(__always)
    static func signed(_ distance: Double, inside: Bool) -> Double {
        guard distance.isFinite else { return .infinity }
        return inside ? -distance : max(distance, .leastNonzeroMagnitude)
    }

    public func contains(_ region: RegionHandle, _ point: Coordinate) -> Bool {
        let slot = store.checkedSlot(region)
        guard let (x, y) = Self.normalized(point) else { return false }
        return store.contains(slot: slot, longitude: x, latitude: y)
    }

    public func attributes(of region: RegionHandle) -> RegionAttributes {
        store.attributes(of: region)
    }

    /// Handles of every region containing the point, in handle order.
    public func regions(containing point: Coordinate) -> [RegionHandle] {
        var result: [RegionHandle] = []
        forEachRegion(containing: point) { result.append($0) }
        return result.sorted()
    }

    /// Slots whose boxes meet the disc of `reach` metres around (x, y), each once.
    private func candidates(around x: Double, _ y: Double, _ reach: Double) -> [RegionSlot] {
        var slots: [RegionSlot] = []
        GeoBox.around(longitude: x, latitude: y, radius: max(reach, 0.001)) { box in
            forEachCandidate(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) {
                slots.append(store.slot(ofShape: $0))
            }
        }
        return Self.unique(&slots)
    }

    private static func unique(_ slots: inout [RegionSlot]) -> [RegionSlot] {
        guard slots.count > 1 else { return slots }
        slots.sort()
        var kept = 1
        for i in 1..<slots.count where slots[i] != slots[kept - 1] {
            slots[kept] = slots[i]
            kept += 1
        }
        slots.removeLast(slots.count - kept)
        return slots
    }

    /// Finite positions with longitude folded into ±180; nil for anything else.
    @inline(__always)
    static func normalized(_ point: Coordinate) -> (Double, Double)? {
        guard point.latitude.isFinite, point.longitude.isFinite, abs(point.latitude) <= 90 else { return nil }
        let x = abs(point.longitude) <= 180 ? point.longitude : Geodesy.normalizedLongitudeDelta(point.longitude)
        return (x, point.latitude)
    }
}
