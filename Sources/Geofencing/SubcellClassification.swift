extension RegionStore {
    /// The verdicts of a shape (see `shapeReference`) over grid entries' sub-rectangles, one raster per
    /// frame (`CellGrid.Classifier`). Every verdict is what `containingSlot` answers for each point of
    /// the sub-rectangle, so queries may trust it. Large polygon parts are left undecided: their own
    /// rasters already answer most points.
    func subcellRasters(shape reference: UInt32, frames: UnsafeBufferPointer<SubcellFrame>,
                        into rasters: UnsafeMutableBufferPointer<SubcellRaster>) {
        let index = Int(reference >> 1)
        if reference & 1 == 0 {
            let circle = circles[index]
            for k in frames.indices { rasters[k] = circle.subcellRaster(frames[k]) }
            return
        }
        for k in frames.indices { rasters[k] = .undecided }
        let header = partHeaders[index]
        guard header.isMasked, frames.contains(where: { $0.cellShare >= Self.leastPolygonCellShare }) else { return }
        withUnsafeTemporaryAllocation(of: Edge.self, capacity: Self.maskedEdgeLimit) { edges in
            // Edges by number; horizontal ones are in no band, but a sub-rectangle they pass is undecided.
            var horizontal: UInt64 = 0
            forEachEdge(ofPart: index) { edge, x0, y0, x1, y1 in
                edges[edge] = Edge(x0: x0, y0: y0, x1: x1, y1: y1)
                if y0 == y1 { horizontal |= 1 << UInt64(edge) }
            }
            let count = Int(header.count)
            for k in frames.indices where frames[k].cellShare >= Self.leastPolygonCellShare {
                // The edges whose latitudes meet the frame's: those of the bands it meets.
                var mask = horizontal
                let m = frames[k].marginY, firstBand = Self.band(frames[k].y0 - m, header.minY, header.scale, count)
                for band in firstBand...Self.band(frames[k].maxY + m, header.minY, header.scale, count) {
                    mask |= header.mask(band: band)
                }
                rasters[k] = Self.subcellRaster(edges: UnsafePointer(edges.baseAddress!), mask, frame: frames[k])
            }
        }
    }

    /// A polygon part's raster walks its edges, several times a circle's cost, so only entries covering
    /// this share of their cell get one. At a million regions that leaves 0.94 polygon candidates per
    /// query undecided instead of 0.70 when all entries over 1/16 of a cell get one, for 36% fewer
    /// polygon rasters and a tenth of the index build.
    static let leastPolygonCellShare = 0.25

    struct Edge {
        var x0, y0, x1, y1: Double
    }

    /// A small part, in one pass over its edges: sub-rectangles an edge comes near are undecided; every
    /// other one, which no edge meets, is inside when the ray from its centre towards +x crosses the
    /// part's rings an odd number of times (the crossing test `partContains` makes, at a point that is
    /// more than the margin away from every edge, where it cannot err).
    /// Works in the frame's units, where sub-rectangle (c, r) is [c, c + 1] × [r, r + 1] and centres sit at
    /// halves; each vertex is converted the same way for both its edges, so their crossings stay consistent.
    private static func subcellRaster(edges: UnsafePointer<Edge>, _ mask: UInt64, frame: SubcellFrame) -> SubcellRaster {
        let scaleX = 1 / frame.width, scaleY = 1 / frame.height, size = Double(SubcellFrame.size)
        let marginX = frame.marginX * scaleX, marginY = frame.marginY * scaleY
        // Row r is byte r, column c its bit c.
        var near: UInt64 = 0, crossings: UInt64 = 0
        var mask = mask
        while mask != 0 {
            let edge = edges[mask.trailingZeroBitCount]
            mask &= mask - 1
            let u0 = (edge.x0 - frame.x0) * scaleX, v0 = (edge.y0 - frame.y0) * scaleY
            let u1 = (edge.x1 - frame.x0) * scaleX, v1 = (edge.y1 - frame.y0) * scaleY
            let lowV = min(v0, v1), highV = max(v0, v1), lowU = min(u0, u1), highU = max(u0, u1)
            guard highV + marginY >= 0, lowV - marginY <= size, highU + marginX >= 0 else { continue }
            let firstRow = Self.subcell(lowV - marginY), lastRow = Self.subcell(highV + marginY)
            if lowU - marginX > size {
                // Right of the frame: it only flips the rows whose centre line it crosses.
                for row in firstRow...lastRow where (v0 > Double(row) + 0.5) != (v1 > Double(row) + 0.5) {
                    crossings ^= 0xFF << UInt64(8 * row)
                }
                continue
            }
            // Branch-free below: which way each test goes is close to random, and a mispredicted branch
            // costs more than computing both sides.
            let slope = v0 == v1 ? 0 : (u1 - u0) / (v1 - v0), horizontal = v0 == v1
            for row in firstRow...lastRow {
                let shift = UInt64(8 * row), centre = Double(row) + 0.5
                // Centres left of the crossing, whose rays meet this edge: columns c < t, counted as ⌊t⌋ + 1
                // (were t a whole number, column t would be near the edge, and whether it counts would not matter).
                let t = u0 + (centre - v0) * slope - 0.5
                let count = Int(min(max(t + 1, 0), size))
                let crosses = (v0 > centre) != (v1 > centre)
                crossings ^= crosses ? UInt64((1 << count) - 1) << shift : 0
                // The part of the edge within the row (widened), as a range of u.
                let low = max(lowV, Double(row) - marginY), high = min(highV, Double(row + 1) + marginY)
                let uLow = u0 + (low - v0) * slope, uHigh = u0 + (high - v0) * slope
                let ua = horizontal ? lowU : min(uLow, uHigh), ub = horizontal ? highU : max(uLow, uHigh)
                let meets = ub + marginX >= 0 && ua - marginX <= size
                let first = Int(min(max(ua - marginX, 0), size - 1)), last = Int(min(max(ub + marginX, 0), size - 1))
                near |= meets ? UInt64((2 << last) - (1 << first)) << shift : 0
            }
        }
        var raster = SubcellRaster()
        for row in 0..<SubcellFrame.size {
            let near = UInt8(truncatingIfNeeded: near >> UInt64(8 * row)), odd = UInt8(truncatingIfNeeded: crossings >> UInt64(8 * row))
            raster.setRow(row, inside: odd & ~near, outside: ~odd & ~near)
        }
        return raster
    }

    /// The column (or row) holding a value in frame units, clamped to the raster.
    @inline(__always)
    private static func subcell(_ v: Double) -> Int { v < 0 ? 0 : v >= 7 ? 7 : Int(v) }

}

extension RegionStore.Circle {
    /// Inside where all of a sub-rectangle is surely inside by the local metric (`contains` answers those
    /// points from that metric alone), outside where all of it is surely outside. The metric's distance
    /// is convex, so a rectangle's largest value is at a corner and its smallest at its point nearest the
    /// centre. A relative slack of 1e-9 covers the rounding of these sums against the query's.
    func subcellRaster(_ frame: SubcellFrame) -> SubcellRaster {
        let mx = frame.marginX, my = frame.marginY, size = SubcellFrame.size
        let inside2 = Double(surelyInside2) * (1 - 1e-9), outside2 = Double(surelyOutside2) * (1 + 1e-9)
        guard inside2 > 0 || outside2.isFinite,
              let shift = longitudeShift(frame.x0 - mx, frame.maxX + mx) else { return .undecided }
        let scaleX = Double(metresPerDegreeLongitude), scaleY = Double(metresPerDegreeLatitude)
        var west = SIMD8<Double>(), east = SIMD8<Double>(), south = SIMD8<Double>(), north = SIMD8<Double>()
        for k in 0..<size {
            west[k] = (frame.x0 + Double(k) * frame.width - mx - longitude + shift) * scaleX
            east[k] = (frame.x0 + Double(k + 1) * frame.width + mx - longitude + shift) * scaleX
            south[k] = (frame.y0 + Double(k) * frame.height - my - latitude) * scaleY
            north[k] = (frame.y0 + Double(k + 1) * frame.height + my - latitude) * scaleY
        }
        let zero = SIMD8<Double>()
        let farX2 = pointwiseMax(west * west, east * east), nearX = pointwiseMax(pointwiseMax(west, -east), zero)
        let farY2 = pointwiseMax(south * south, north * north), nearY = pointwiseMax(pointwiseMax(south, -north), zero)
        let nearX2 = nearX * nearX
        var raster = SubcellRaster()
        for row in 0..<size {
            let nearY2 = nearY[row] * nearY[row]
            raster.setRow(row, inside: Self.laneMask(farX2 + farY2[row] .< inside2),
                          outside: Self.laneMask(nearX2 + nearY2 .> outside2))
        }
        return raster
    }

    /// Bit k set for each true lane k.
    @inline(__always)
    private static func laneMask(_ mask: SIMDMask<SIMD8<Int64>>) -> UInt8 {
        UInt8(truncatingIfNeeded: SIMD8<Int64>().replacing(with: laneBits, where: mask).wrappedSum())
    }

    private static let laneBits = SIMD8<Int64>(1, 2, 4, 8, 16, 32, 64, 128)

    /// What `contains` adds to the longitude offsets of a range of longitudes when it wraps them (0 or
    /// ±360); nil when it would add different amounts within the range.
    private func longitudeShift(_ minX: Double, _ maxX: Double) -> Double? {
        let west = minX - longitude, east = maxX - longitude
        if west > 180 { return -360 }
        if east < -180 { return 360 }
        return west >= -180 && east <= 180 ? 0 : nil
    }
}
