extension RegionStore {
    /// Metres a band's latitude gap is shortened by before it rules the band out: more than the rounding of
    /// band arithmetic (parts per 1e16 of a degree), so that a band ruled out holds no edge nearer than `best`.
    static let bandGapSlack = 1e-6

    /// Lowers `best` to the least squared distance from the point to an edge of the part, in the flat metric
    /// `scale`, when that is less; the very value a visit of every edge gives.
    ///
    /// A part's edges are visited band by band outwards from the point's band (see `PartHeader`), and the visit
    /// stops at the first band whose latitude gap alone puts it `best` away: an edge's distance is at least its
    /// latitude gap. A point near the boundary (what the monitor measures) finds a near edge in its own band, and
    /// a 64-edge part then costs a band or three of edges instead of 64; a time zone's, a few hundred instead of
    /// all. A large part's horizontal edges, listed after its bands, are visited too. A small part with edges in
    /// no band (horizontal edges, the jumps between a shell and its holes) visits every edge.
    @inline(__always)
    func lowerBoundaryDistanceSquared(_ best: inout Double, part: Int, x: Double, y: Double,
                                      scale: (latitude: Double, longitude: Double)) {
        let header = partHeaders[part]
        let first = header.firstPosition
        func measure(_ edge: Int, _ best: inout Double) {
            let a = vertex(first.advanced(by: edge)), b = vertex(first.advanced(by: edge + 1))
            best = min(best, Self.edgeDistanceSquared(a.x, a.y, b.x, b.y, x: x, y: y, scale: scale))
        }
        switch header.kind {
        case .small where header.scale > 0 && everyEdgeBanded(header, part: part):
            var visited: UInt64 = 0
            visitBands(outwardFrom: y, of: header, metresPerDegree: scale.latitude, &best) { band, best in
                var mask = header.mask(band: band) & ~visited
                visited |= mask
                while mask != 0 {
                    measure(mask.trailingZeroBitCount, &best)
                    mask &= mask - 1
                }
            }
        case .large where header.scale > 0:
            bandEdges.withUnsafeBufferPointer { list in
                // An edge listed in several bands is measured again: the least value is the same.
                visitBands(outwardFrom: y, of: header, metresPerDegree: scale.latitude, &best) { band, best in
                    let b = header.firstBand + band
                    for k in Int(bandEdgeStart[b])..<Int(bandEdgeStart[b + 1]) { measure(Int(list[k]), &best) }
                }
                let horizontal = header.firstBand + Int(header.bandCount)
                for k in Int(bandEdgeStart[horizontal])..<Int(bandEdgeStart[horizontal + 1]) { measure(Int(list[k]), &best) }
            }
        default:
            forEachEdge(ofPart: part) { _, x0, y0, x1, y1 in
                best = min(best, Self.edgeDistanceSquared(x0, y0, x1, y1, x: x, y: y, scale: scale))
            }
        }
    }

    /// Whether the small part's bands hold every one of its edges.
    @inline(__always)
    func everyEdgeBanded(_ header: PartHeader, part: Int) -> Bool {
        let edges = positions(ofPart: part).count - 1
        var banded: UInt64 = 0
        for band in 0..<Int(header.bandCount) { banded |= header.mask(band: band) }
        return edges > 0 && banded == (edges == 64 ? ~0 : (1 << UInt64(edges)) - 1)
    }

    /// Calls `visit` with the point's band, then with the bands outward from it, nearer first, until the next
    /// band's latitude gap from the point, in metres, is at least `best`'s root.
    @inline(__always)
    private func visitBands(outwardFrom y: Double, of header: PartHeader, metresPerDegree: Double, _ best: inout Double,
                            _ visit: (Int, inout Double) -> Void) {
        let count = Int(header.bandCount), height = 1 / header.scale
        let own = Self.band(y, header.minY, header.scale, count)
        visit(own, &best)
        var below = own - 1, above = own + 1
        while below >= 0 || above < count {
            // Degrees from the point down to band `below`'s top, and up to band `above`'s bottom.
            let gapBelow = below >= 0 ? y - (header.minY + Double(below + 1) * height) : .infinity
            let gapAbove = above < count ? header.minY + Double(above) * height - y : .infinity
            let gap = max(0, min(gapBelow, gapAbove) * metresPerDegree - Self.bandGapSlack)
            // The nearer band is too far already, and every band beyond it farther still.
            guard gap * gap < best else { return }
            if gapBelow <= gapAbove {
                visit(below, &best)
                below -= 1
            } else {
                visit(above, &best)
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
