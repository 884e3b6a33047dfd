/// What `geowake regions check` reports about a store: counts by kind, extent and sizes.
public struct RegionSummary: Sendable {
    public var circles = 0
    public var polygons = 0
    public var beacons = 0
    /// Polygon parts (a Polygon has one, a MultiPolygon one per member).
    public var parts = 0
    public var holes = 0
    public var vertices = 0
    /// West, south, east, north of the boxes covering every region (a circle across the antimeridian
    /// stretches it to ±180); nil without geographic regions.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)?

    public init(_ store: RegionStore) {
        var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
        for slot in 0..<store.slotCount {
            let shape = Int(store.shapeIndex[slot])
            switch store.kinds[slot] {
            case .removed: continue
            case .beacon: beacons += 1
            case .circle:
                circles += 1
                store.boxes(ofSlot: RegionSlot(slot)) { box, _ in
                    west = min(west, box.minX); east = max(east, box.maxX)
                    south = min(south, box.minY); north = max(north, box.maxY)
                }
            case .polygon:
                polygons += 1
                let partRange = Int(store.polygonPartStart[shape])..<Int(store.polygonPartStart[shape + 1])
                parts += partRange.count
                holes += store.rings(ofPolygon: shape).count - partRange.count
                let rings = store.rings(ofPolygon: shape)
                vertices += Int(store.ringPositionStart[rings.upperBound] - store.ringPositionStart[rings.lowerBound])
                store.boxes(ofSlot: RegionSlot(slot)) { box, _ in
                    west = min(west, box.minX); east = max(east, box.maxX)
                    south = min(south, box.minY); north = max(north, box.maxY)
                }
            }
        }
        if west <= east { bounds = (west, south, east, north) }
    }
}
