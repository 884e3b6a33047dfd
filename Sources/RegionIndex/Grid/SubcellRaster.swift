/// What a grid entry knows of its polygon part (see `CellEntry`): over an 8×8 raster laid on the entry's
/// box within its cell, whether each sub-rectangle lies wholly inside the shape, wholly outside it, or is
/// undecided (the shape's boundary passes near it). A query whose point falls in a decided sub-rectangle
/// has its answer without reading the shape's record or edges, which at a million regions is most of a
/// query's cost. 2 bits per sub-rectangle, 16 bytes: row r is bits 16r..<16r + 16 of `low` (rows 0-3) or
/// 16(r - 4)..<16(r - 4) + 16 of `high`, 2 per column.
struct SubcellRaster: Equatable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    /// Every sub-rectangle undecided: queries test the shape itself.
    static let undecided = SubcellRaster()

    /// The 2 bits of sub-rectangle (column, row): `insideCode`, `outsideCode` or `undecidedCode`.
    @inline(__always)
    func code(column: Int, row: Int) -> UInt64 {
        (row < 4 ? low : high) >> UInt64(truncatingIfNeeded: 16 &* (row & 3) &+ 2 &* column) & 3
    }

    static let undecidedCode: UInt64 = 0, insideCode: UInt64 = 1, outsideCode: UInt64 = 2

    /// Sets row `row` from bit masks of its inside and outside columns (disjoint).
    mutating func setRow(_ row: Int, inside: UInt8, outside: UInt8) {
        let bits = Self.spread(inside) | Self.spread(outside) << 1, shift = UInt64(16 * (row & 3))
        if row < 4 {
            low = low & ~(0xFFFF << shift) | bits << shift
        } else {
            high = high & ~(0xFFFF << shift) | bits << shift
        }
    }

    /// Bit c of `mask` to bit 2c.
    private static func spread(_ mask: UInt8) -> UInt64 {
        var m = UInt64(mask)
        m = (m | m << 4) & 0x0F0F
        m = (m | m << 2) & 0x3333
        return (m | m << 1) & 0x5555
    }
}

/// Where a raster's sub-rectangles lie, in degrees: column c spans longitudes `x0 + c · width` to
/// `x0 + (c + 1) · width`, row r likewise from `y0`. A verdict holds for its sub-rectangle widened by
/// `marginX` and `marginY` on every side, more than a query errs in placing a point (`CellGrid.placementUnits`),
/// so every point a query places in it shares it.
struct SubcellFrame {
    var x0: Double
    var y0: Double
    var width: Double
    var height: Double
    /// The share of its grid cell the frame covers: the share of the cell's points that fall in it.
    var cellShare = 1.0
    var marginX = Self.margin
    var marginY = Self.margin
    /// The places of the entry's cell, for circles.
    var places = CellPlaces()

    static let size = 8
    /// The least margin, far beyond the rounding of the arithmetic in degrees.
    static let margin = 1e-9

    var maxX: Double { x0 + Double(Self.size) * width }
    var maxY: Double { y0 + Double(Self.size) * height }
}
