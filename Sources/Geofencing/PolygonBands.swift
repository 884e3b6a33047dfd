/// Horizontal bands of edges per polygon part, so the crossing-number test looks only at edges whose
/// latitude range meets the point's band instead of at every edge. A part of at most 64 edges keeps a
/// bit mask of edges per band in its header (8 bands of 32 edges, or 4 of 64); a larger one, like a time
/// zone with 100 000 vertices, keeps a list of edges per band. Horizontal edges never cross a ray and are
/// left out. Edges are numbered by their first position from the part's first, so a query needs no ring
/// structure at all.
///
/// Everything a query needs about a part sits in its header, 64 bytes stored on a cache line of its own
/// (see `CacheLineArray`): at a million regions each separate read would be a cache miss of its own.
struct PartHeader {
    var minY: Double
    /// Bands per degree of latitude.
    var scale: Double
    var firstPosition: UInt32
    var slot: UInt32
    /// Bands: 8 or 4 (small parts, masks), 16 or more (large parts, lists); 0 once the part's region is
    /// removed: it then contains nothing.
    var count: UInt32
    /// Index in `rasters`, or -1 (small parts).
    var raster: Int32
    /// Small parts: the bands' edge masks, a word each (8 bands) or two words each, low first (4 bands).
    /// Large parts: the index of the first band in `bandEdgeStart`, in the first word.
    var words = SIMD8<UInt32>()
}

extension PartHeader {
    /// Small parts have at most 64 edges and 4 or 8 bands; large parts at least 16.
    var isMasked: Bool { count == 8 || count == 4 }

    /// The edges of a small part's band holding latitude y.
    @inline(__always)
    func mask(y: Double) -> UInt64 {
        let band = RegionStore.band(y, minY, scale, Int(count))
        return count == 8 ? UInt64(words[band]) : UInt64(words[2 * band]) | UInt64(words[2 * band + 1]) << 32
    }

    /// A large part's first band in `bandEdgeStart`.
    var firstBand: Int { Int(words[0]) }
}

extension RegionStore {
    static let maskedEdgeLimit = 64

    /// Computes the bands of the parts appended since the last call: the index does this for regions it
    /// adds, and `reorderShapes` for all after a bulk load, so a load does not compute them twice.
    mutating func appendMissingBands() {
        for part in partHeaders.count..<(partRingStart.count - 1) {
            appendBands(ofPart: part)
            appendRaster(ofPart: part)
        }
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
        let masked = edgeCount <= Self.maskedEdgeLimit
        var count = edgeCount <= 32 ? 8 : 4
        if !masked {
            // About 4 edges per band, fewer bands when long edges would be listed in many of them:
            // the lists then hold about twice as many entries as the part has edges.
            var rise = 0.0
            forEachEdgeStart(ofPart: part) { i in rise += abs(coordinates[2 * i + 3] - coordinates[2 * i + 1]) }
            count = max(16, min(1 << 22, edgeCount / 4, Int(Double(edgeCount) * (maxY - minY) / rise)))
        }
        let scale = maxY > minY ? Double(count) / (maxY - minY) : 0
        var header = PartHeader(minY: minY, scale: scale, firstPosition: UInt32(firstPosition), slot: partSlots[part],
                                count: UInt32(count), raster: -1)
        // Collected in locals: mutating `self` inside a closure passed to a method of `self` would copy arrays.
        var masks = SIMD8<UInt64>()
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
            for b in 0..<count {
                if count == 8 {
                    header.words[b] = UInt32(truncatingIfNeeded: masks[b])
                } else {
                    header.words[2 * b] = UInt32(truncatingIfNeeded: masks[b])
                    header.words[2 * b + 1] = UInt32(truncatingIfNeeded: masks[b] >> 32)
                }
            }
        } else {
            header.words[0] = UInt32(bandEdgeStart.count)
            for list in lists {
                bandEdgeStart.append(UInt32(bandEdges.count))
                bandEdges.append(contentsOf: list)
            }
            bandEdgeStart.append(UInt32(bandEdges.count))
        }
        partHeaders.append(header)
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

    /// Whether one part (shell and holes) contains the point: from its raster when the point's cell is
    /// clear of edges, else by the crossing number over the edges of the point's band.
    @inline(__always)
    func partContains(_ part: Int, x: Double, y: Double) -> Bool {
        let header = partHeaders[part]
        guard header.count > 0 else { return false }
        if header.raster >= 0 {
            switch rasterCell(Int(header.raster), x: x, y: y) {
            case .inside: return true
            case .outside: return false
            case .boundary, .unknown: break
            }
        }
        return partContainsByBands(header, x: x, y: y)
    }

    /// Crossing-number test of one part (shell and holes): odd means inside.
    @inline(__always)
    func partContainsByBands(_ header: PartHeader, x: Double, y: Double) -> Bool {
        let base = Int(header.firstPosition)
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
            let band = Self.band(y, header.minY, header.scale, Int(header.count))
            if header.isMasked {
                return maskedPartContains(base: base, mask: header.mask(y: y), x: x, y: y)
            } else {
                let b = header.firstBand + band
                for k in Int(bandEdgeStart[b])..<Int(bandEdgeStart[b + 1]) { cross(base + Int(bandEdges[k])) }
            }
            return inside
        }
    }

    /// Crossing parity over the edges in `mask`, numbered from position `base`.
    @inline(__always)
    func maskedPartContains(base: Int, mask: UInt64, x: Double, y: Double) -> Bool {
        coordinates.withUnsafeBufferPointer { xy in
            var inside = false, mask = mask
            while mask != 0 {
                let i = base + mask.trailingZeroBitCount
                mask &= mask - 1
                let y0 = xy[2 * i + 1], y1 = xy[2 * i + 3]
                guard (y0 > y) != (y1 > y) else { continue }
                let x0 = xy[2 * i], x1 = xy[2 * i + 2]
                if x < x0 && x < x1 { inside.toggle(); continue }
                if x >= x0 && x >= x1 { continue }
                let side = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)
                if (side > 0) == (y1 > y0) { inside.toggle() }
            }
            return inside
        }
    }
}
