#if canImport(Glibc)
import Glibc
#endif

/// A uniform grid over item boxes, for point queries: the cell holding a point lists, contiguously, every
/// item whose box meets the cell, each with the part of its box inside the cell quantized to 1/256 of the
/// cell per axis (4 bytes, rounded outwards). A point query reads one cell's bounds and scans one short
/// run of bytes instead of walking a tree from its root, whose node reads at a million regions are cache
/// misses of their own; the quantized boxes leave the exact tests only the items whose box holds the point
/// (give or take 1/256 of a cell). Cells are as small as `bytesPerItem` allows: smaller cells mean
/// shorter scans but more entries, as an item is listed in every cell its box meets.
struct CellGrid: Sendable {
    /// Memory allowance per item: 8 bytes per entry, 4 per cell.
    static let bytesPerItem = 16
    /// Items whose entry counts estimate a cell size's cost.
    static let sampleSize = 20_000

    private var minX = 0.0, minY = 0.0, maxX = -1.0, maxY = -1.0
    /// Sub-cells (1/256 of a cell) per degree.
    private var scaleX = 0.0, scaleY = 0.0
    private var columns = 0, rows = 0
    /// Entries of cell k are `cellStart[k]..<cellStart[k + 1]`.
    private var cellStart: [UInt32] = []
    /// Per entry, the item's box within the cell in sub-cells: lowX | highX << 8 | lowY << 16 | highY << 24.
    private var entryBoxes: [UInt32] = []
    private var entryPayloads: [UInt32] = []

    init() {}

    /// Builds over item boxes (4 doubles each) and their payloads.
    init(boxes: [Double], payloads: [UInt32]) {
        let n = payloads.count
        guard n > 0 else { return }
        for i in 0..<n {
            if i == 0 || boxes[4 * i] < minX { minX = boxes[4 * i] }
            if i == 0 || boxes[4 * i + 1] < minY { minY = boxes[4 * i + 1] }
            if i == 0 || boxes[4 * i + 2] > maxX { maxX = boxes[4 * i + 2] }
            if i == 0 || boxes[4 * i + 3] > maxY { maxY = boxes[4 * i + 3] }
        }
        chooseCells(boxes, n)
        // A counting sort of (item, cell) pairs by cell: count, sum, then place with a cursor per cell.
        let columns = self.columns
        var cursor = [UInt32](repeating: 0, count: columns * rows + 1)
        cursor.withUnsafeMutableBufferPointer { count in
            forEachSpan(boxes) { _, g0x, g1x, g0y, g1y in
                for r in (g0y >> 8)...(g1y >> 8) {
                    for c in (g0x >> 8)...(g1x >> 8) { count[r * columns + c + 1] += 1 }
                }
            }
            for k in 0..<(count.count - 1) { count[k + 1] += count[k] }
        }
        cellStart = cursor
        let total = Int(cursor[cursor.count - 1])
        var entryBoxes = [UInt32](repeating: 0, count: total + 15), entryPayloads = [UInt32](repeating: 0, count: total)
        cursor.withUnsafeMutableBufferPointer { cursor in
            entryBoxes.withUnsafeMutableBufferPointer { entryBoxes in
                entryPayloads.withUnsafeMutableBufferPointer { entryPayloads in
                    forEachSpan(boxes) { i, g0x, g1x, g0y, g1y in
                        for r in (g0y >> 8)...(g1y >> 8) {
                            let lowY = r == g0y >> 8 ? g0y & 255 : 0, highY = r == g1y >> 8 ? g1y & 255 : 255
                            for c in (g0x >> 8)...(g1x >> 8) {
                                let lowX = c == g0x >> 8 ? g0x & 255 : 0, highX = c == g1x >> 8 ? g1x & 255 : 255
                                let e = Int(cursor[r * columns + c])
                                cursor[r * columns + c] += 1
                                entryBoxes[e] = UInt32(lowX | highX << 8 | lowY << 16 | highY << 24)
                                entryPayloads[e] = payloads[i]
                            }
                        }
                    }
                }
            }
        }
        self.entryBoxes = entryBoxes
        self.entryPayloads = entryPayloads
    }

    /// Calls `body` with each item's number and its first and last sub-cell column and row.
    @inline(__always)
    private func forEachSpan(_ boxes: [Double], _ body: (Int, Int, Int, Int, Int) -> Void) {
        boxes.withUnsafeBufferPointer { b in
            for i in 0..<(b.count / 4) {
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
                entries += ((subColumn(boxes[4 * i + 2]) >> 8) - (subColumn(boxes[4 * i]) >> 8) + 1)
                    * ((subRow(boxes[4 * i + 3]) >> 8) - (subRow(boxes[4 * i + 1]) >> 8) + 1)
            }
            guard 8 * Double(entries * stride) + 4 * cells <= allowance else { break }
            size = smaller
        }
        setCells(size: size, stretch: stretch)
    }

    private mutating func setCells(size: Double, stretch: Double) {
        columns = max(1, Int((max(maxX - minX, 1e-9) * stretch / size).rounded(.up)))
        rows = max(1, Int((max(maxY - minY, 1e-9) / size).rounded(.up)))
        scaleX = 256 * stretch / size
        scaleY = 256 / size
    }

    /// The sub-cell column of longitude x: monotonic in x, so an item's span always holds its points'.
    @inline(__always)
    private func subColumn(_ x: Double) -> Int { min(max(0, Int((x - minX) * scaleX)), 256 * columns - 1) }

    @inline(__always)
    private func subRow(_ y: Double) -> Int { min(max(0, Int((y - minY) * scaleY)), 256 * rows - 1) }

    /// Calls `body` with the payload of every item whose box (widened by at most 1/256 of a cell) holds the point.
    @inline(__always)
    func forEach(x: Double, y: Double, _ body: (UInt32) -> Void) {
        guard x >= minX && x <= maxX && y >= minY && y <= maxY else { return }
        let gx = subColumn(x), gy = subRow(y)
        let cell = (gy >> 8) * columns + (gx >> 8)
        let start = cellStart[cell], end = Int(cellStart[cell + 1])
        let px = SIMD16<UInt32>(repeating: UInt32(gx & 255)), py = SIMD16<UInt32>(repeating: UInt32(gy & 255))
        let byte = SIMD16<UInt32>(repeating: 255)
        entryBoxes.withUnsafeBufferPointer { boxes in
            entryPayloads.withUnsafeBufferPointer { payloads in
                var e = Int(start)
                while e < end {
                    // 16 entries at a time; `entryBoxes` is padded so that the last load stays inside it.
                    let box = UnsafeRawPointer(boxes.baseAddress! + e).loadUnaligned(as: SIMD16<UInt32>.self)
                    let lowX = box & byte, lowY = box &>> 16 & byte
                    // Unsigned differences: a point below the low bound wraps round to a large number.
                    let hit = (px &- lowX .<= (box &>> 8 & byte) &- lowX) .& (py &- lowY .<= (box &>> 24) &- lowY)
                    var lanes = SIMD16<UInt32>(repeating: 0).replacing(with: Self.laneBits, where: hit).wrappedSum()
                    if end - e < 16 { lanes &= (1 << UInt32(end - e)) - 1 }
                    while lanes != 0 {
                        body(payloads[e + lanes.trailingZeroBitCount])
                        lanes &= lanes - 1
                    }
                    e += 16
                }
            }
        }
    }

    private static let laneBits = SIMD16<UInt32>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)

    var memoryFootprint: Int { (cellStart.capacity + entryBoxes.capacity + entryPayloads.capacity) * 4 }
}
