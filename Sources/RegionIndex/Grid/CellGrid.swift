#if canImport(Glibc)
import Glibc
#endif
import CIntrinsics

/// A uniform grid over item boxes, for point queries: the cell holding a point lists, contiguously, every
/// item whose box meets the cell, each with the part of its box inside the cell quantized to 1/256 of the
/// cell per axis (4 bytes, rounded outwards). A point query reads one cell's bounds and scans one short
/// run of bytes instead of walking a tree from its root, whose node reads at a million regions are cache
/// misses of their own; the quantized boxes leave only the items whose box holds the point (give or take
/// 1/256 of a cell). Each entry also carries what its item looks like there (`CellEntry`: a circle itself,
/// or a polygon part's `SubcellRaster` over that box), so most of those are answered by the grid alone:
/// inside (the entry's tag is then the region's slot), outside, or to be tested exactly. Cells are as
/// small as `bytesPerItem` allows: smaller cells mean shorter scans and finer rasters but more entries,
/// as an item is listed in every cell its box meets.
struct CellGrid: Sendable {
    /// Memory allowance per item: `bytesPerEntry` per entry, 4 per cell. 80 bytes make cells small enough
    /// for the entries to decide six candidates in seven at a million regions; the whole index then
    /// takes 276 bytes per region there, within the budget of 150 per region and 16 per vertex (318).
    static let bytesPerItem = 80
    static let bytesPerEntry = 4 + MemoryLayout<CellEntry>.stride
    /// Items whose entry counts estimate a cell size's cost.
    static let sampleSize = 20_000

    private(set) var minX = 0.0, minY = 0.0, maxX = -1.0, maxY = -1.0
    /// Sub-cells (1/256 of a cell) per degree, degrees per sub-cell, and places (`placementUnits` per
    /// sub-cell) per degree.
    private(set) var scaleX = 0.0, scaleY = 0.0
    private(set) var degreesPerSubX = 0.0, degreesPerSubY = 0.0
    private(set) var placesPerDegreeX = 0.0, placesPerDegreeY = 0.0
    private(set) var columns = 0, rows = 0
    /// Entries of cell k are `cellStart[k]..<cellStart[k + 1]`.
    private(set) var cellStart: [UInt32] = []
    /// Per entry, the item's box within the cell.
    private(set) var entryBoxes: [PackedBox] = []
    var entries: [CellEntry] = []

    init() {}

    /// Builds over item boxes (4 doubles each), their payloads and tags, with every entry undecided.
    init(boxes: [Double], payloads: [UInt32]) {
        self.init(boxes: boxes, payloads: payloads, tags: payloads) { _, _, _ in }
    }

    /// Builds over item boxes (4 doubles each), their payloads and tags; `classify` says what a payload's
    /// item looks like in each of its entries (see `Classifier`). Items are placed in chunks of at least
    /// `itemsPerChunk`, on every core.
    init(boxes: [Double], payloads: [UInt32], tags: [UInt32], itemsPerChunk: Int = Self.itemsPerChunk, classify: Classifier) {
        let n = payloads.count
        guard n > 0 else { return }
        for i in 0..<n {
            if i == 0 || boxes[4 * i] < minX { minX = boxes[4 * i] }
            if i == 0 || boxes[4 * i + 1] < minY { minY = boxes[4 * i + 1] }
            if i == 0 || boxes[4 * i + 2] > maxX { maxX = boxes[4 * i + 2] }
            if i == 0 || boxes[4 * i + 3] > maxY { maxY = boxes[4 * i + 3] }
        }
        chooseCells(boxes, n)
        // A counting sort of (item, cell) pairs by cell, on every core: each chunk of items counts its
        // pairs per cell; the counts become each chunk's first place in each cell; each chunk places its
        // pairs from there and classifies them (an item's geometry is prepared once for all its entries).
        // A cell's entries come in item order, as one pass would place them (then in tag order: `orderCellsByTag`).
        let columns = self.columns, cellCount = columns * rows, grid = self
        let chunks = chunkRanges(of: 0..<n, atLeast: itemsPerChunk, limit: 4)
        // Chunk k's counts, then its places, are `cursors[k * cellCount..<(k + 1) * cellCount]`.
        var cursors = [UInt32](repeating: 0, count: chunks.count * cellCount)
        var cellStart = [UInt32](unsafeUninitializedCapacity: cellCount + 1) { cells, count in
            adviseHugePages(cells.baseAddress!, byteCount: 4 * cells.count)
            count = cellCount + 1
        }
        let total = cursors.withUnsafeMutableBufferPointer { cursors in
            inParallel(chunks) { k, chunk in
                let count = cursors.baseAddress! + k * cellCount
                grid.forEachSpan(boxes, chunk) { _, g0x, g1x, g0y, g1y in
                    for r in g0y.cell...g1y.cell {
                        for c in g0x.cell...g1x.cell { count[r * columns + c] += 1 }
                    }
                }
            }
            var placed: UInt32 = 0
            for c in 0..<cellCount {
                cellStart[c] = placed
                for k in chunks.indices {
                    let count = cursors[k * cellCount + c]
                    cursors[k * cellCount + c] = placed
                    placed += count
                }
            }
            cellStart[cellCount] = placed
            return Int(placed)
        }
        self.cellStart = cellStart
        // Entries are written where they are placed, from every core: on huge pages made beforehand.
        var entryBoxes = [PackedBox](unsafeUninitializedCapacity: total + 15) { boxes, count in
            prefaultHugePages(boxes.baseAddress!, byteCount: 4 * boxes.count)
            count = total + 15
        }
        var entries = [CellEntry](unsafeUninitializedCapacity: total) { entries, count in
            prefaultHugePages(entries.baseAddress!, byteCount: MemoryLayout<CellEntry>.stride * entries.count)
            count = total
        }
        cursors.withUnsafeMutableBufferPointer { cursors in
            entryBoxes.withUnsafeMutableBufferPointer { entryBoxes in
                entries.withUnsafeMutableBufferPointer { entries in
                    inParallel(chunks) { k, chunk in
                        let cursor = UnsafeMutableBufferPointer(rebasing: cursors[k * cellCount..<(k + 1) * cellCount])
                        grid.place(boxes, chunk, payloads, tags, cursor, entryBoxes, entries, classify)
                    }
                }
            }
        }
        Self.orderCellsByTag(cellStart, &entryBoxes, &entries)
        self.entryBoxes = entryBoxes
        self.entries = entries
    }

    /// Calls `body` with the number of each item of `items` and its first and last sub-cell column and row.
    @inline(__always)
    func forEachSpan(_ boxes: [Double], _ items: Range<Int>, _ body: (Int, GridSubcell, GridSubcell, GridSubcell, GridSubcell) -> Void) {
        boxes.withUnsafeBufferPointer { b in
            for i in items {
                body(i, subColumn(b[4 * i]), subColumn(b[4 * i + 2]), subRow(b[4 * i + 1]), subRow(b[4 * i + 3]))
            }
        }
    }

    /// Picks the smallest square cell (in metres at the extent's middle latitude) whose grid, estimated
    /// on a sample of items, stays within `bytesPerItem`.
    private mutating func chooseCells(_ boxes: [Double], _ n: Int) {
        let stretch = max(0.05, cos((minY + maxY) / 2 * .pi / 180))   // degrees of latitude per degree of longitude
        let width = max(maxX - minX, 1e-9) * stretch, height = max(maxY - minY, 1e-9)
        let stride = max(1, n / Self.sampleSize)
        let sample = Swift.stride(from: 0, to: n, by: stride)
        let allowance = Double(Self.bytesPerItem * n)
        var size = max(width, height)
        setCells(size: size, stretch: stretch)
        while true {
            let smaller = size * 0.8
            let cells = (width / smaller).rounded(.up) * (height / smaller).rounded(.up)
            guard cells < Double(1 << 28), 4 * cells < allowance else { break }
            setCells(size: smaller, stretch: stretch)
            var entries = 0
            for i in sample {
                entries += (subColumn(boxes[4 * i + 2]).cell - subColumn(boxes[4 * i]).cell + 1)
                    * (subRow(boxes[4 * i + 3]).cell - subRow(boxes[4 * i + 1]).cell + 1)
            }
            guard Double(Self.bytesPerEntry * entries * stride) + 4 * cells <= allowance else { break }
            size = smaller
        }
        setCells(size: size, stretch: stretch)
    }

    private mutating func setCells(size: Double, stretch: Double) {
        columns = max(1, Int((max(maxX - minX, 1e-9) * stretch / size).rounded(.up)))
        rows = max(1, Int((max(maxY - minY, 1e-9) / size).rounded(.up)))
        scaleX = 256 * stretch / size
        scaleY = 256 / size
        degreesPerSubX = 1 / scaleX
        degreesPerSubY = 1 / scaleY
        placesPerDegreeX = scaleX * Double(Self.placementUnits)
        placesPerDegreeY = scaleY * Double(Self.placementUnits)
    }

    /// The sub-cell column of longitude x: monotonic in x, so an item's span always holds its points'.
    @inline(__always)
    func subColumn(_ x: Double) -> GridSubcell {
        GridSubcell(rawValue: min(max(0, Int((x - minX) * scaleX)), GridSubcell.perCell * columns - 1))
    }

    @inline(__always)
    func subRow(_ y: Double) -> GridSubcell {
        GridSubcell(rawValue: min(max(0, Int((y - minY) * scaleY)), GridSubcell.perCell * rows - 1))
    }

    /// For every item whose box (widened by at most 1/256 of a cell) holds the point: calls `inside` with
    /// its tag if its entry puts the point inside, `undecided` if the entry cannot tell, and neither if it
    /// puts the point outside.
    @inline(__always)
    func forEach(x: Double, y: Double, inside: (_ tag: UInt32) -> Void, undecided: (UndecidedEntry) -> Void) {
        guard x >= minX && x <= maxX && y >= minY && y <= maxY else { return }
        let gx = subColumn(x), gy = subRow(y)
        let cell = gy.cell * columns + gx.cell
        let start = cellStart[cell], end = Int(cellStart[cell + 1])
        let sx = gx.withinCell, sy = gy.withinCell
        // The point's place in its cell, exact for circles and whole for rasters (see `placementUnits`).
        let px = Self.place(x, minX, placesPerDegreeX, Double(gx.cellStart * Self.placementUnits))
        let py = Self.place(y, minY, placesPerDegreeY, Double(gy.cellStart * Self.placementUnits))
        let fx = Self.whole(px, within: sx), fy = Self.whole(py, within: sy)
        entryBoxes.withUnsafeBufferPointer { boxes in
            // The kernel reads the boxes as the integers they wrap.
            let packed = UnsafeRawPointer(boxes.baseAddress!).assumingMemoryBound(to: UInt32.self)
            entries.withUnsafeBufferPointer { entries in
                Self.prefetch(entries, Int(start)..<end)
                Self.subcellReciprocals.withUnsafeBufferPointer { reciprocals in
                    var e = Int(start)
                    while e < end {
                        // 16 entries at a time; `entryBoxes` is padded so that the last load stays inside it.
                        var lanes = quantized_boxes_holding(packed + e, UInt32(sx), UInt32(sy))
                        if end - e < 16 { lanes &= (1 << UInt32(end - e)) - 1 }
                        while lanes != 0 {
                            let k = e &+ lanes.trailingZeroBitCount
                            lanes &= lanes &- 1
                            let entry = entries[k]
                            let code: UInt64
                            if entry.holdsCircle {
                                code = entry.circle.code(x: px, y: py)
                            } else {
                                let box = boxes[k]
                                let column = Self.subcell(fx, low: box.west, high: box.east, reciprocals)
                                let row = Self.subcell(fy, low: box.south, high: box.north, reciprocals)
                                code = entry.raster.code(column: column, row: row)
                            }
                            switch code {
                            case SubcellRaster.insideCode: inside(entry.itemTag)
                            case SubcellRaster.undecidedCode: undecided(entry.undecided)
                            default: break
                            }
                        }
                        e &+= 16
                    }
                }
            }
        }
    }

    /// Each sub-cell holds `placementUnits` places per axis. Rasters take a point's place as a whole
    /// number (below 65536 within its cell), so that finding its sub-rectangle costs a multiplication and
    /// a shift; their verdicts hold for their sub-rectangles widened by two places (`SubcellFrame.marginX`),
    /// more than this rounding. Circles take it unrounded.
    static let placementUnits = 256

    /// The place of `v` (a longitude or latitude) in the cell whose first place is `cell`: the same
    /// arithmetic for points and for the circles they are tested against.
    @inline(__always)
    static func place(_ v: Double, _ min: Double, _ perDegree: Double, _ cell: Double) -> Double {
        (v - min) * perDegree - cell
    }

    /// Place `place` as a whole number, clamped to the sub-cell `sub` of its cell that the point's box
    /// test used (they differ only by rounding).
    @inline(__always)
    private static func whole(_ place: Double, within sub: Int) -> Int {
        let low = sub * placementUnits
        return min(max(Int(place), low), low + placementUnits - 1)
    }

    /// The raster column (or row) of place `place` within a box spanning sub-cells `low` to `high`: the
    /// box's places split in 8 equal runs, by a multiplication with `reciprocals[high - low]`. The place
    /// lies within the box, so the product stays below 8 · 2^32.
    @inline(__always)
    static func subcell(_ place: Int, low: UInt32, high: UInt32, _ reciprocals: UnsafeBufferPointer<UInt64>) -> Int {
        let offset = UInt64(truncatingIfNeeded: place &- Int(low) &* placementUnits)
        return Int(truncatingIfNeeded: (offset &* reciprocals[Int(high &- low)]) >> 32)
    }

    /// `2^32 · 8 / ((span + 1) · placementUnits)` for each span, rounded up: with offsets below 2^16 the
    /// excess never reaches the next whole number, so every quotient is exact.
    static let subcellReciprocals: [UInt64] = (0..<256).map { span in
        let places = UInt64((span + 1) * placementUnits)
        return ((1 << 32) * UInt64(SubcellFrame.size) + places - 1) / places
    }

    /// Starts loading the first `prefetchedEntryLines` cache lines of a cell's entries, which are read
    /// only after its boxes.
    @inline(__always)
    private static func prefetch(_ entries: UnsafeBufferPointer<CellEntry>, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let first = UInt(bitPattern: entries.baseAddress! + range.lowerBound) & ~63
        let end = min(UInt(bitPattern: entries.baseAddress! + range.upperBound), first + 64 * UInt(Self.prefetchedEntryLines))
        for line in stride(from: first, to: end, by: 64) { CIntrinsics.prefetch(UnsafeRawPointer(bitPattern: line)) }
    }

    static let prefetchedEntryLines = 4

    var memoryFootprint: Int {
        (cellStart.capacity + entryBoxes.capacity) * 4 + entries.capacity * MemoryLayout<CellEntry>.stride
    }
}
