import GeoWakeCore

/// Longitude/latitude boxes that certainly contain a region or a query disc. A box never crosses the
/// antimeridian: one that would is split in two, and one that reaches a pole covers every longitude.
struct GeoBox: Equatable {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    /// Fewest metres per degree of latitude anywhere on the ellipsoid (at the equator).
    static let leastMetresPerDegreeLatitude = 110_574.27

    /// Boxes covering every point within `radius` metres (geodesic) of a centre, 1 or 2 of them.
    static func around(longitude: Double, latitude: Double, radius: Double, _ body: (GeoBox) -> Void) {
        // 0.5 % slack over the spherical estimates covers the ellipsoid and rounding.
        let dLat = radius / leastMetresPerDegreeLatitude * 1.005 + 1e-9
        let south = latitude - dLat, north = latitude + dLat
        if south <= -90 || north >= 90 {
            return body(GeoBox(minX: -180, minY: max(-90, south), maxX: 180, maxY: min(90, north)))
        }
        let poleward = max(abs(south), abs(north))
        let dLon = radius / Geodesy.metresPerDegree(atLatitude: poleward).longitude * 1.005 + 1e-9
        if dLon >= 180 { return body(GeoBox(minX: -180, minY: south, maxX: 180, maxY: north)) }
        wrapped(west: longitude - dLon, south: south, east: longitude + dLon, north: north, body)
    }

    /// A box whose longitudes may run past ±180, cut at the antimeridian into boxes within ±180.
    static func wrapped(west: Double, south: Double, east: Double, north: Double, _ body: (GeoBox) -> Void) {
        if west < -180 {
            body(GeoBox(minX: west + 360, minY: south, maxX: 180, maxY: north))
            body(GeoBox(minX: -180, minY: south, maxX: east, maxY: north))
        } else if east > 180 {
            body(GeoBox(minX: west, minY: south, maxX: 180, maxY: north))
            body(GeoBox(minX: -180, minY: south, maxX: east - 360, maxY: north))
        } else {
            body(GeoBox(minX: west, minY: south, maxX: east, maxY: north))
        }
    }

    func appending(to boxes: inout [Double]) {
        boxes.append(minX); boxes.append(minY); boxes.append(maxX); boxes.append(maxY)
    }
}

extension RegionStore {
    /// The index boxes of a live geographic slot, with the part each belongs to (0 for circles): one per
    /// polygon part, one or two per circle, none for beacons and removed slots.
    func boxes(ofSlot slot: RegionSlot, _ body: (GeoBox, Int) -> Void) {
        switch kinds[slot.index] {
        case .beacon, .removed: return
        case .circle:
            let c = circles[Int(shapeIndex[slot.index])]
            GeoBox.around(longitude: c.longitude, latitude: c.latitude, radius: c.radius) { body($0, 0) }
        case .polygon:
            let p = Int(shapeIndex[slot.index])
            let firstPart = Int(polygonPartStart[p])
            for part in firstPart..<Int(polygonPartStart[p + 1]) { body(bounds(ofPart: part), part - firstPart) }
        }
    }
}

extension RegionStore {
    /// Slots per chunk when the index items are listed on every core.
    static let slotsPerChunk = 100_000

    /// The boxes of every live geographic slot (4 doubles each) in slot order, with the slot and part of
    /// each: the items of an index build. Listed in chunks of slots on every core, each into buffers
    /// reserved for its most items (two per circle, which may be split at the antimeridian), then joined
    /// in order, again on every core.
    func indexItems(slotsPerChunk: Int = Self.slotsPerChunk) -> (boxes: [Double], slots: [RegionSlot], parts: [UInt32]) {
        let ranges = chunkRanges(of: 0..<slotCount, atLeast: slotsPerChunk), store = self
        var chunks = [(boxes: [Double], slots: [RegionSlot], parts: [UInt32])](repeating: ([], [], []), count: ranges.count)
        chunks.withUnsafeMutableBufferPointer { chunks in
            inParallel(ranges) { k, range in
                var most = 0
                for slot in range {
                    switch store.kinds[slot] {
                    case .circle: most += 2
                    case .polygon: most += Int(store.polygonPartStart[Int(store.shapeIndex[slot]) + 1] - store.polygonPartStart[Int(store.shapeIndex[slot])])
                    case .beacon, .removed: break
                    }
                }
                var boxes: [Double] = [], slots: [RegionSlot] = [], parts: [UInt32] = []
                boxes.reserveCapacity(4 * most)
                slots.reserveCapacity(most)
                parts.reserveCapacity(most)
                for slot in range {
                    store.boxes(ofSlot: RegionSlot(slot)) { box, part in
                        box.appending(to: &boxes)
                        slots.append(RegionSlot(slot))
                        parts.append(UInt32(part))
                    }
                }
                chunks[k] = (boxes, slots, parts)
            }
        }
        if chunks.count == 1 { return chunks[0] }
        var ends = [0]
        for chunk in chunks { ends.append(ends[ends.count - 1] + chunk.slots.count) }
        let starts = ends, total = ends[chunks.count]
        func joined<T>(_ width: Int, _ part: (Int) -> [T]) -> [T] {
            [T](unsafeUninitializedCapacity: width * total) { joined, count in
                inParallel(ranges) { k, _ in
                    part(k).withUnsafeBufferPointer { source in
                        (joined.baseAddress! + width * starts[k]).initialize(from: source.baseAddress!, count: source.count)
                    }
                }
                count = width * total
            }
        }
        let done = chunks
        return (joined(4) { done[$0].boxes }, joined(1) { done[$0].slots }, joined(1) { done[$0].parts })
    }
}
