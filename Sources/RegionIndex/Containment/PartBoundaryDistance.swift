extension RegionStore {
    /// Metres a band's latitude gap is shortened by before it rules the band out: more than the rounding of
    /// band arithmetic (parts per 1e16 of a degree), so that a band ruled out holds no edge nearer than `best`.
    static let bandGapSlack = 1e-6

    /// Lowers `best` to the least squared distance from the point to an edge of the part, in the flat metric
    /// `scale`, when that is less; the very value a visit of every edge gives.
    ///
    /// A small part's edges are visited band by band outwards from the point's band, and the visit stops at
    /// the first band whose latitude gap alone puts it `best` away: an edge's distance is at least its latitude
    /// gap. A point near the boundary (what the monitor measures) finds a near edge in its own band, and a
    /// 64-edge part then costs a band or three of edges instead of 64. Parts with edges in no band (horizontal
    /// edges, and the jumps between a shell and its holes) and large parts visit every edge.
    @inline(__always)
    func lowerBoundaryDistanceSquared(_ best: inout Double, part: Int, x: Double, y: Double,
                                      scale: (latitude: Double, longitude: Double)) {
        let header = partHeaders[part]
        let count = Int(header.bandCount)
        let edges = positions(ofPart: part).count - 1
        var banded: UInt64 = 0
        if header.isMasked, header.scale > 0 {
            for band in 0..<count { banded |= header.mask(band: band) }
        }
        guard header.isMasked, header.scale > 0, edges > 0,
              banded == (edges == 64 ? ~0 : (1 << UInt64(edges)) - 1) else {
            forEachEdge(ofPart: part) { _, x0, y0, x1, y1 in
                best = min(best, Self.edgeDistanceSquared(x0, y0, x1, y1, x: x, y: y, scale: scale))
            }
            return
        }
        let first = header.firstPosition, height = 1 / header.scale
        var visited: UInt64 = 0
        func visit(_ band: Int) {
            var mask = header.mask(band: band) & ~visited
            visited |= mask
            while mask != 0 {
                let edge = mask.trailingZeroBitCount
                mask &= mask - 1
                let a = vertex(first.advanced(by: edge)), b = vertex(first.advanced(by: edge + 1))
                best = min(best, Self.edgeDistanceSquared(a.x, a.y, b.x, b.y, x: x, y: y, scale: scale))
            }
        }
        let own = Self.band(y, header.minY, header.scale, count)
        visit(own)
        var below = own - 1, above = own + 1
        while below >= 0 || above < count {
            // Degrees from the point up to band `below`'s top, and up to band `above`'s bottom.
            let gapBelow = below >= 0 ? y - (header.minY + Double(below + 1) * height) : .infinity
            let gapAbove = above < count ? header.minY + Double(above) * height - y : .infinity
            let takesBelow = gapBelow <= gapAbove
            let gap = max(0, min(gapBelow, gapAbove) * scale.latitude - Self.bandGapSlack)
            // The nearer band is too far already, and every band beyond it farther still.
            guard gap * gap < best else { return }
            if takesBelow {
                visit(below)
                below -= 1
            } else {
                visit(above)
                above += 1
            }
        }
    }

    /// Squared metres from the point to the edge from (x0, y0) to (x1, y1), in the flat metric `scale`.
    @inline(__always)
    static func edgeDistanceSquared(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, x: Double, y: Double,
                                    scale: (latitude: Double, longitude: Double)) -> Double {
        originDistanceSquared((x0 - x) * scale.longitude, (y0 - y) * scale.latitude,
                              (x1 - x) * scale.longitude, (y1 - y) * scale.latitude)
    }
}
