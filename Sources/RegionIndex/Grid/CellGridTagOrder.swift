extension CellGrid {
    /// Puts each cell's entries in the order of their tags (regions' slots), keeping the item order among equal
    /// tags, so that a point query hears the regions the grid decides in handle order: the region monitor sorts a
    /// fix's hits by handle, and sorting 150 to 250 of them in the cell's item order was 5% of a fleet worker's time.
    /// Nothing else depends on an entry's place in its cell. Cells are ordered on every core, in chunks of about
    /// equal entries: regions crowd a city's cells, and chunks of equal cell counts left most of the work to one.
    static func orderCellsByTag(_ cellStart: [UInt32], _ entryBoxes: inout [PackedBox], _ entries: inout [CellEntry]) {
        let cellCount = cellStart.count - 1
        guard cellCount > 0 else { return }
        let chunks = cellChunks(cellStart, entries: chunkRanges(of: 0..<Int(cellStart[cellCount]), atLeast: 16_384))
        entryBoxes.withUnsafeMutableBufferPointer { boxes in
            entries.withUnsafeMutableBufferPointer { entries in
                inParallel(chunks) { _, cells in
                    var order: [Int] = []
                    var boxScratch: [PackedBox] = []
                    var entryScratch: [CellEntry] = []
                    for cell in cells {
                        let range = Int(cellStart[cell])..<Int(cellStart[cell + 1])
                        guard range.count > 1,
                              zip(range.dropLast(), range.dropFirst()).contains(where: { entries[$0].itemTag > entries[$1].itemTag })
                        else { continue }
                        order.removeAll(keepingCapacity: true)
                        order.append(contentsOf: range)
                        order.sort { (entries[$0].itemTag, $0) < (entries[$1].itemTag, $1) }
                        boxScratch.removeAll(keepingCapacity: true)
                        entryScratch.removeAll(keepingCapacity: true)
                        for e in order {
                            boxScratch.append(boxes[e])
                            entryScratch.append(entries[e])
                        }
                        for (k, e) in range.enumerated() {
                            boxes[e] = boxScratch[k]
                            entries[e] = entryScratch[k]
                        }
                    }
                }
            }
        }
    }

    /// The cells cut where `entries`' chunks begin: each chunk of cells holds about the entries of one of them.
    static func cellChunks(_ cellStart: [UInt32], entries: [Range<Int>]) -> [Range<Int>] {
        let cellCount = cellStart.count - 1
        var bounds = [0]
        for chunk in entries.dropFirst() {
            // The first cell starting at or after the chunk's first entry.
            var low = bounds.last!, high = cellCount
            while low < high {
                let middle = (low + high) / 2
                if Int(cellStart[middle]) < chunk.lowerBound { low = middle + 1 } else { high = middle }
            }
            if low > bounds.last! { bounds.append(low) }
        }
        if bounds.last! < cellCount { bounds.append(cellCount) }
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }
}
