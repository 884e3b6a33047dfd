/// Horizontal bands of edges per polygon part, so the crossing-number test looks only at edges whose
/// latitude range meets the point's band instead of at every edge. A part of at most 64 edges keeps one
/// 64-bit edge mask per band (8 bands, 64 bytes); a larger one, like a time zone with 100 000 vertices,
/// keeps a list of edges per band, about 4 edges per band. Horizontal edges never cross a ray and are left out.
struct BandHeader {
    var minY: Double
    /// Bands per degree of latitude.
    var scale: Double
    /// First band in `bandMasks` (small parts) or in `bandEdgeStart` (large parts).
    var first: UInt32
    /// 0 for parts tested edge by edge (8 edges or fewer).
    var count: UInt32
}

extension RegionStore {
    static let maskBands = 8
    static let maskedEdgeLimit = 64

    /// Computes the bands of the parts appended since the last call: the index does this for regions it
    /// adds, and `reorderShapes` for all after a bulk load, so a load does not compute them twice.
    mutating func appendMissingBands() {
        for part in bandHeaders.count..<(partRingStart.count - 1) { appendBands(ofPart: part) }
    }

    /// Computes and appends the bands of part `part` (its rings and positions must already be stored).
    mutating func appendBands(ofPart part: Int) {
        let firstPosition = Int(ringPositionStart[Int(partRingStart[part])])
        let endPosition = Int(ringPositionStart[Int(partRingStart[part + 1])])
        let edgeCount = endPosition - firstPosition - 1
        var minY = Double.infinity, maxY = -Double.infinity
        for i in firstPosition..<endPosition {
            minY = min(minY, coordinates[2 * i + 1])
            maxY = max(maxY, coordinates[2 * i + 1])
        }
        guard edgeCount > 8, maxY > minY else {
            bandHeaders.append(BandHeader(minY: minY, scale: 0, first: 0, count: 0))
            return
        }
        let masked = edgeCount <= Self.maskedEdgeLimit
        let count = masked ? Self.maskBands : min(1 << 22, edgeCount / 4)
        let scale = Double(count) / (maxY - minY)
        let first = masked ? bandMasks.count : bandEdgeStart.count
        bandHeaders.append(BandHeader(minY: minY, scale: scale, first: UInt32(first), count: UInt32(count)))
        // Collected in locals: mutating `self` inside a closure passed to a method of `self` would copy arrays.
        var masks = [UInt64](repeating: 0, count: masked ? count : 0)
        var lists = masked ? [] : [[UInt32]](repeating: [], count: count)
        forEachEdgeStart(ofPart: part) { i in
            let y0 = coordinates[2 * i + 1], y1 = coordinates[2 * i + 3]
            guard y0 != y1 else { return }
            let low = Self.band(min(y0, y1), minY, scale, count), high = Self.band(max(y0, y1), minY, scale, count)
            let edge = i - firstPosition
            for b in low...high {
                if masked { masks[b] |= 1 << UInt64(edge) } else { lists[b].append(UInt32(edge)) }
            }
        }
        if masked {
            bandMasks.append(contentsOf: masks)
        } else {
            for list in lists {
                bandEdgeStart.append(UInt32(bandEdges.count))
                bandEdges.append(contentsOf: list)
            }
            bandEdgeStart.append(UInt32(bandEdges.count))
        }
    }

    /// The band of latitude y, clamped: the same monotonic arithmetic for edges and points, so a point's
    /// band always lies within the bands of every edge whose latitude range contains it.
    @inline(__always)
    static func band(_ y: Double, _ minY: Double, _ scale: Double, _ count: Int) -> Int {
        let b = (y - minY) * scale
        return b < 0 ? 0 : b >= Double(count - 1) ? count - 1 : Int(b)
    }

    /// Calls `body` with the first position of every edge of the part (not the jumps between rings).
    func forEachEdgeStart(ofPart part: Int, _ body: (Int) -> Void) {
        for ring in Int(partRingStart[part])..<Int(partRingStart[part + 1]) {
            for i in Int(ringPositionStart[ring])..<(Int(ringPositionStart[ring + 1]) - 1) { body(i) }
        }
    }

    /// Crossing-number test of one part (shell and holes): odd means inside.
    @inline(__always)
    func partContains(_ part: Int, x: Double, y: Double) -> Bool {
        let header = bandHeaders[part]
        let base = Int(ringPositionStart[Int(partRingStart[part])])
        return coordinates.withUnsafeBufferPointer { xy in
            var inside = false
            // Does the ray from (x, y) towards +x cross edge i? Decided by the edge's x-range when it can
            // be, else by the side of the edge the point is on (a cross product: no division).
            @inline(__always) func cross(_ i: Int) {
                let y0 = xy[2 * i + 1], y1 = xy[2 * i + 3]
                guard (y0 > y) != (y1 > y) else { return }
                let x0 = xy[2 * i], x1 = xy[2 * i + 2]
                if x < x0 && x < x1 { inside.toggle(); return }
                if x >= x0 && x >= x1 { return }
                let side = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)
                if (side > 0) == (y1 > y0) { inside.toggle() }
            }
            if header.count == 0 {
                forEachEdgeStart(ofPart: part, cross)
                return inside
            }
            let band = Self.band(y, header.minY, header.scale, Int(header.count))
            // Large parts have more than 64 edges, so more than 8 bands: 8 means masks.
            if header.count == UInt32(Self.maskBands) {
                var mask = bandMasks[Int(header.first) + band]
                while mask != 0 {
                    cross(base + mask.trailingZeroBitCount)
                    mask &= mask - 1
                }
            } else {
                let b = Int(header.first) + band
                for k in Int(bandEdgeStart[b])..<Int(bandEdgeStart[b + 1]) { cross(base + Int(bandEdges[k])) }
            }
            return inside
        }
    }
}
