
extension CellGrid {
    /// Replaces `entries[k]`, undecided with the item's payload and tag, by what the payload's item looks
    /// like over `frames[k]` (or leaves it). Called with several frames per item, so that an item's geometry
    /// is prepared once for all its entries, and from every core at once.
    typealias Classifier = @Sendable (_ payload: UInt32, _ frames: UnsafeBufferPointer<SubcellFrame>,
                                      _ entries: UnsafeMutableBufferPointer<CellEntry>) -> Void

    /// Items per chunk of a parallel build, and frames per call of the classifier.
    static let itemsPerChunk = 50_000
    static let framesPerCall = 64

    /// Places the entries of `items` from their chunk's first places in each cell (`cursor`), and
    /// classifies each item's entries, a call per item (or per `framesPerCall` of its entries).
    func place(_ boxes: [Double], _ items: Range<Int>, _ payloads: [UInt32], _ tags: [UInt32], _ cursor: UnsafeMutableBufferPointer<UInt32>,
               _ entryBoxes: UnsafeMutableBufferPointer<PackedBox>, _ entries: UnsafeMutableBufferPointer<CellEntry>,
               _ classify: Classifier) {
        // Plain buffers, not arrays: arrays captured by the span closure were checked for exclusive
        // access at run time on every append, a sixth of the whole build.
        let columns = self.columns, batch = Self.framesPerCall
        let frames = UnsafeMutableBufferPointer<SubcellFrame>.allocate(capacity: batch)
        let staged = UnsafeMutableBufferPointer<CellEntry>.allocate(capacity: batch)
        let framed = UnsafeMutableBufferPointer<Int>.allocate(capacity: batch)
        defer { frames.deallocate(); staged.deallocate(); framed.deallocate() }
        // Entries of one item go to different cells: they are classified together in `staged`.
        func classifyStaged(_ count: Int, _ payload: UInt32) {
            guard count > 0 else { return }
            classify(payload, UnsafeBufferPointer(rebasing: frames[..<count]), UnsafeMutableBufferPointer(rebasing: staged[..<count]))
            for k in 0..<count { entries[framed[k]] = staged[k] }
        }
        forEachSpan(boxes, items) { i, g0x, g1x, g0y, g1y in
            var count = 0
            // An item's box within each cell it meets: its own edges in its first and last cells, the
            // cell's elsewhere.
            for r in g0y.cell...g1y.cell {
                let lowY = r == g0y.cell ? g0y.withinCell : 0, highY = r == g1y.cell ? g1y.withinCell : 255
                for c in g0x.cell...g1x.cell {
                    let lowX = c == g0x.cell ? g0x.withinCell : 0, highX = c == g1x.cell ? g1x.withinCell : 255
                    let e = Int(cursor[r * columns + c])
                    cursor[r * columns + c] += 1
                    let box = PackedBox(west: lowX, east: highX, south: lowY, north: highY)
                    entryBoxes[e] = box
                    staged[count] = CellEntry(raster: .undecided, payload: payloads[i], tag: tags[i])
                    frames[count] = frame(cell: r * columns + c, box: box)
                    framed[count] = e
                    count += 1
                    if count == batch {
                        classifyStaged(count, payloads[i])
                        count = 0
                    }
                }
            }
            classifyStaged(count, payloads[i])
        }
    }

    /// The frame of an entry of cell `cell` with box `box`: the box's sub-cells cut in 8 equal columns and
    /// rows (see `subcell`), and the cell's places.
    func frame(cell: Int, box: PackedBox) -> SubcellFrame {
        let lowX = Int(box.west), highX = Int(box.east), lowY = Int(box.south), highY = Int(box.north)
        let column = cell % columns, row = cell / columns
        let places = CellPlaces(minX: minX, minY: minY, perDegreeX: placesPerDegreeX, perDegreeY: placesPerDegreeY,
                                cellX: Double(256 * column * Self.placementUnits), cellY: Double(256 * row * Self.placementUnits))
        return SubcellFrame(x0: minX + Double(256 * column + lowX) * degreesPerSubX, y0: minY + Double(256 * row + lowY) * degreesPerSubY,
                            width: Double(highX - lowX + 1) * degreesPerSubX / Double(SubcellFrame.size),
                            height: Double(highY - lowY + 1) * degreesPerSubY / Double(SubcellFrame.size),
                            cellShare: Double((highX - lowX + 1) * (highY - lowY + 1)) / (256 * 256),
                            marginX: SubcellFrame.margin + 2 / placesPerDegreeX, marginY: SubcellFrame.margin + 2 / placesPerDegreeY,
                            places: places)
    }

    /// Makes undecided every entry of an item: its region is gone, and only its record knows that.
    mutating func forgetVerdicts(tag: UInt32, minX: Double, minY: Double, maxX: Double, maxY: Double) {
        guard !entries.isEmpty, maxX >= self.minX, minX <= self.maxX, maxY >= self.minY, minY <= self.maxY else { return }
        for r in subRow(minY).cell...subRow(maxY).cell {
            for c in subColumn(minX).cell...subColumn(maxX).cell {
                for e in Int(cellStart[r * columns + c])..<Int(cellStart[r * columns + c + 1]) where entries[e].itemTag == tag {
                    let entry = entries[e]
                    entries[e] = entry.holdsCircle ? CellEntry(circle: .undecided, tag: tag)
                        : CellEntry(raster: .undecided, payload: entry.payload, tag: tag)
                }
            }
        }
    }
}
