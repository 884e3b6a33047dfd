/// A sub-cell column (or row) of the grid, counted from its low corner: 256 sub-cells per cell, so the
/// cell is the high bits and the sub-cell's place within its cell the low byte (the unit of `PackedBox`).
struct GridSubcell {
    var rawValue: Int

    @inline(__always)
    init(rawValue: Int) { self.rawValue = rawValue }

    static let perCell = 256

    /// The cell column (or row) holding the sub-cell.
    var cell: Int { @inline(__always) get { rawValue >> 8 } }

    /// The sub-cell's place within its cell, 0...255.
    var withinCell: Int { @inline(__always) get { rawValue & 255 } }

    /// The first sub-cell of the same cell.
    var cellStart: Int { @inline(__always) get { rawValue & ~255 } }
}
