extension RegionStore {
    /// What a shape (see `shapeReference`) looks like in grid entries, one per frame (`CellGrid.Classifier`):
    /// a circle itself, or a polygon part's raster. Every verdict is what `containingSlot` answers for
    /// each point it covers, so queries may trust it. Large polygon parts, and parts' entries covering
    /// under `leastPolygonCellShare` of their cell, stay undecided.
    func classify(shape reference: ShapeReference, frames: UnsafeBufferPointer<SubcellFrame>,
                  entries: UnsafeMutableBufferPointer<CellEntry>) {
        if reference.isCircle {
            let circle = circles[reference.circleNumber]
            for k in frames.indices { entries[k] = CellEntry(circle: circle.cellCircle(frames[k]), tag: entries[k].tag) }
            return
        }
        let index = reference.partNumber, header = partHeaders[index]
        guard header.isMasked, frames.contains(where: { $0.cellShare >= Self.leastPolygonCellShare }) else { return }
        withUnsafeTemporaryAllocation(of: Edge.self, capacity: Self.maskedEdgeLimit) { edges in
            // Edges by number; horizontal ones are in no band, but a sub-rectangle they pass is undecided.
            var horizontal: UInt64 = 0
            forEachEdge(ofPart: index) { edge, x0, y0, x1, y1 in
                edges[edge] = Edge(x0: x0, y0: y0, x1: x1, y1: y1)
                if y0 == y1 { horizontal |= 1 << UInt64(edge) }
            }
            let count = Int(header.bandCount)
            for k in frames.indices where frames[k].cellShare >= Self.leastPolygonCellShare {
                // The edges whose latitudes meet the frame's: those of the bands it meets.
                var mask = horizontal
                let m = frames[k].marginY, firstBand = Self.band(frames[k].y0 - m, header.minY, header.scale, count)
                for band in firstBand...Self.band(frames[k].maxY + m, header.minY, header.scale, count) {
                    mask |= header.mask(band: band)
                }
                let raster = Self.subcellRaster(edges: UnsafePointer(edges.baseAddress!), mask, frame: frames[k])
                entries[k] = CellEntry(raster: raster, payload: reference.rawValue, tag: entries[k].tag)
            }
        }
    }

    /// A polygon part's raster walks its edges, so only entries covering this share of their cell get
    /// one: a point falls in the others so seldom that their rasters would cost the build more than they
    /// save the queries. At a million regions 0.77 polygon candidates per query stay undecided; 0.94 with
    /// rasters only for entries over 1/4 of their cell, 0.70 with rasters for all over 1/16, which costs
    /// another 0.13 s of build.
    static let leastPolygonCellShare = 0.125

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
            let slope = v0 == v1 ? 0 : (u1 - u0) / (v1 - v0)
            // Rows whose centre line the edge crosses, r + 0.5 in [lowV, highV): their centres left of the
            // crossing, columns c < t, have rays that meet it. Counted as ⌊t⌋ + 1 (were t a whole number,
            // column t would be near the edge, and whether it counts would not matter).
            let firstCrossed = max(0, -Self.floor(0.5 - lowV)), lastCrossed = min(7, -Self.floor(0.5 - highV) - 1)
            if firstCrossed <= lastCrossed {
                for row in firstCrossed...lastCrossed {
                    let t = u0 + (Double(row) + 0.5 - v0) * slope - 0.5
                    let count = Int(min(max(t + 1, 0), size))
                    crossings ^= UInt64((1 << count) - 1) << UInt64(8 * row)
                }
            }
            if lowU - marginX > size { continue }   // right of the frame: it only flips rows
            let firstRow = Self.subcell(lowV - marginY), lastRow = Self.subcell(highV + marginY)
            // Within one row or column (or level), the edge's box is all it comes near (unclamped: an
            // edge leaving the frame may still cross rows or columns out there).
            if Self.floor(lowV - marginY) == Self.floor(highV + marginY)
                || Self.floor(lowU - marginX) == Self.floor(highU + marginX) || v0 == v1 {
                let firstColumn = Self.subcell(lowU - marginX), lastColumn = Self.subcell(highU + marginX)
                let columns = UInt64((2 << lastColumn) - (1 << firstColumn)) &* 0x0101_0101_0101_0101
                let rows = ((UInt64(2) << UInt64(8 * lastRow)) &- (UInt64(1) << UInt64(8 * firstRow))) & 0x0101_0101_0101_0101
                near |= columns & (rows &* 0xFF)
                continue
            }
            // Branch-free below: which way each test goes is close to random, and a mispredicted branch
            // costs more than computing both sides.
            for row in firstRow...lastRow {
                // The part of the edge within the row (widened), as a range of u.
                let low = max(lowV, Double(row) - marginY), high = min(highV, Double(row + 1) + marginY)
                let uLow = u0 + (low - v0) * slope, uHigh = u0 + (high - v0) * slope
                let ua = min(uLow, uHigh), ub = max(uLow, uHigh)
                let meets = ub + marginX >= 0 && ua - marginX <= size
                let first = Int(min(max(ua - marginX, 0), size - 1)), last = Int(min(max(ub + marginX, 0), size - 1))
                near |= meets ? UInt64((2 << last) - (1 << first)) << UInt64(8 * row) : 0
            }
        }
        var raster = SubcellRaster()
        for row in 0..<SubcellFrame.size {
            let near = UInt8(truncatingIfNeeded: near >> UInt64(8 * row)), odd = UInt8(truncatingIfNeeded: crossings >> UInt64(8 * row))
            raster.setRow(row, inside: odd & ~near, outside: ~odd & ~near)
        }
        return raster
    }

    /// ⌊v⌋ for v within ±2^30 (clamped there), without the call to `floor` that `rounded(.down)`
    /// costs where SSE4.1 may be missing.
    @inline(__always)
    private static func floor(_ v: Double) -> Int {
        let w = min(max(v, -0x1p30), 0x1p30), f = Int(w)
        return w < Double(f) ? f - 1 : f
    }

    /// The column (or row) holding a value in frame units, clamped to the raster.
    @inline(__always)
    private static func subcell(_ v: Double) -> Int { v < 0 ? 0 : v >= 7 ? 7 : Int(v) }

}

extension RegionStore.Circle {
    /// The circle in the places of a frame's cell, deciding every point of the frame but those within
    /// the local metric's sure bounds (as `contains` does), widened by the rounding of the floats kept:
    /// the centre's, of relative size 2^-24, costs 2^-24 · |centre| places on each axis; the scales' and the
    /// arithmetic's, far less than 1e-6 of the distance. Undecided when the local metric may not decide
    /// or a wrap at the antimeridian would differ within the frame.
    func cellCircle(_ frame: SubcellFrame) -> CellCircle {
        guard surelyInside2 > 0, surelyOutside2.isFinite,
              let shift = longitudeShift(frame.x0 - frame.marginX, frame.maxX + frame.marginX) else { return .undecided }
        let x = frame.places.x(longitude - shift), y = frame.places.y(latitude)
        let metresX = Double(metresPerDegreeLongitude) / frame.places.perDegreeX
        let metresY = Double(metresPerDegreeLatitude) / frame.places.perDegreeY
        let rounding = 0x1p-22 * (abs(x) * metresX + abs(y) * metresY) + 1e-6
        let inner = Double(surelyInside2).squareRoot() * (1 - 1e-6) - rounding
        let outer = Double(surelyOutside2).squareRoot() * (1 + 1e-6) + rounding
        guard inner > 0 else { return .undecided }
        return CellCircle(x: Float(x), y: Float(y), scaleX: Float(metresX / inner), scaleY: Float(metresY / inner),
                          outside: PackedRTree.floatAbove(outer * outer / (inner * inner)))
    }

    /// What `contains` adds to the longitude offsets of a range of longitudes when it wraps them (0 or
    /// ±360); nil when it would add different amounts within the range.
    private func longitudeShift(_ minX: Double, _ maxX: Double) -> Double? {
        let west = minX - longitude, east = maxX - longitude
        if west > 180 { return -360 }
        if east < -180 { return 360 }
        return west >= -180 && east <= 180 ? 0 : nil
    }
}
