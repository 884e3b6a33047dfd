/// A coarse raster over each large polygon part (more than 64 edges: time zones, countries), about four
/// cells per edge, each cell known to be inside, outside, or on the boundary. Most points of a large
/// polygon fall in a cell no edge comes near, and are answered from one byte instead of a walk over edges:
/// this is what makes time-zone lookups fast. 2 bits per cell, about 1 byte per vertex.
struct RasterHeader {
    var minX: Double
    var minY: Double
    /// Cells per degree.
    var scaleX: Double
    var scaleY: Double
    var columns: Int32
    var rows: Int32
    /// Index of the first cell in `rasterCells` (4 cells per byte).
    var first: Int
}

enum RasterCell: UInt8 {
    case unknown = 0, inside = 1, outside = 2, boundary = 3
}

extension RasterHeader {
    /// Edges are widened by this much when marking boundary cells, far more than the rounding of the cell
    /// arithmetic: a cell not marked has no edge within 1e-9° (0.1 mm), so one test decides all of it.
    static let margin = 1e-9

    @inline(__always)
    func column(_ x: Double) -> Int {
        let c = (x - minX) * scaleX
        return c < 0 ? 0 : c >= Double(columns - 1) ? Int(columns - 1) : Int(c)
    }

    @inline(__always)
    func row(_ y: Double) -> Int {
        let r = (y - minY) * scaleY
        return r < 0 ? 0 : r >= Double(rows - 1) ? Int(rows - 1) : Int(r)
    }
}

extension RegionStore {
    /// Builds the raster of a part whose bands are already stored.
    mutating func appendRaster(ofPart part: Int) {
        let edgeCount = positions(ofPart: part).count - 1
        guard edgeCount > Self.maskedEdgeLimit else { return }
        let box = bounds(ofPart: part), minX = box.minX, minY = box.minY, maxX = box.maxX, maxY = box.maxY
        let width = max(maxX - minX, 1e-9), height = max(maxY - minY, 1e-9)
        let cells = Double(min(4 * edgeCount, 1 << 24))
        let columns = max(1, min(8192, Int((cells * width / height).squareRoot().rounded(.up))))
        let rows = max(1, min(8192, Int((cells / Double(columns)).rounded(.up))))
        let header = RasterHeader(minX: minX, minY: minY, scaleX: Double(columns) / width, scaleY: Double(rows) / height,
                                  columns: Int32(columns), rows: Int32(rows), first: rasterCells.count * 4)
        var grid = [RasterCell](repeating: .unknown, count: columns * rows)
        let e = RasterHeader.margin
        forEachEdge(ofPart: part) { _, x0, y0, x1, y1 in
            for r in header.row(min(y0, y1) - e)...header.row(max(y0, y1) + e) {
                // The part of the edge within this row (widened), as a range of x.
                let low = minY + Double(r) / header.scaleY - e, high = minY + Double(r + 1) / header.scaleY + e
                var xa = min(x0, x1), xb = max(x0, x1)
                if y0 != y1 {
                    let ta = min(1, max(0, (low - y0) / (y1 - y0))), tb = min(1, max(0, (high - y0) / (y1 - y0)))
                    let xta = x0 + (x1 - x0) * ta, xtb = x0 + (x1 - x0) * tb
                    xa = min(xta, xtb)
                    xb = max(xta, xtb)
                }
                for c in header.column(xa - e)...header.column(xb + e) { grid[r * columns + c] = .boundary }
            }
        }
        // A run of unmarked cells in a row meets no edge: the state of its first cell centre is the run's.
        for r in 0..<rows {
            var c = 0
            while c < columns {
                guard grid[r * columns + c] == .unknown else { c += 1; continue }
                let x = minX + (Double(c) + 0.5) / header.scaleX, y = minY + (Double(r) + 0.5) / header.scaleY
                let state: RasterCell = partContainsByBands(partHeaders[part], x: x, y: y) ? .inside : .outside
                while c < columns && grid[r * columns + c] == .unknown {
                    grid[r * columns + c] = state
                    c += 1
                }
            }
        }
        var packed = [UInt8](repeating: 0, count: (grid.count + 3) / 4)
        for (k, cell) in grid.enumerated() { packed[k >> 2] |= cell.rawValue << UInt8(2 * (k & 3)) }
        partHeaders[part].raster = Int32(rasters.count)
        rasters.append(header)
        rasterCells.append(contentsOf: packed)
    }

    /// The raster's verdict for a point of a large part: inside, outside, or boundary (then test edges).
    @inline(__always)
    func rasterCell(_ raster: Int, x: Double, y: Double) -> RasterCell {
        let header = rasters[raster]
        let c = (x - header.minX) * header.scaleX, r = (y - header.minY) * header.scaleY
        // Off the part's box (the tree's float boxes are a little larger): surely outside.
        guard c >= 0 && c < Double(header.columns) && r >= 0 && r < Double(header.rows) else { return .outside }
        let k = header.first + header.row(y) * Int(header.columns) + header.column(x)
        return RasterCell(rawValue: (rasterCells[k >> 2] >> UInt8(2 * (k & 3))) & 3)!
    }
}
