import CIntrinsics

extension RegionStore {
    /// Rewrites circles and polygons in the given slot order (the index's Hilbert order), dropping the
    /// shapes of removed slots. Regions that are near each other on the ground then sit near each other
    /// in memory, so the few candidates of one query share cache lines: at a million regions this is
    /// worth more than any arithmetic saved in the tests themselves.
    ///
    /// The bulk of the data is copied in its old order (sequential reads, scattered block writes): read in
    /// the new order instead, every region costs a few cache misses in a row, and the copy takes 3× longer.
    /// The copies run in halves on two cores once there are `partsPerChunk` parts or circles per half.
    mutating func reorderShapes(_ slotsInOrder: [RegionSlot], partsPerChunk: Int = Self.partsPerChunk) {
        appendMissingBands()
        let numbering = numberShapes(inOrderOf: slotsInOrder)
        let offsets = polygonOffsets(inOrder: numbering.polygonOrder)
        let newCoordinates = copyVertices(coordinates, offsets.destination, fixedPoint: false,
                                          count: offsets.doublePositions, partsPerChunk)
        let newFixedCoordinates = copyVertices(fixedCoordinates, offsets.destination, fixedPoint: true,
                                               count: offsets.fixedPositions, partsPerChunk)
        circles = reorderedCircles(numbering.newCircleOf, count: numbering.circleCount, partsPerChunk)
        partSlots = offsets.partSlots
        polygonPartStart = offsets.partStart
        partRingStart = offsets.ringStart
        ringPositionStart = offsets.positionStart
        polygonRingStart = offsets.polygonRingStart
        coordinates = newCoordinates
        fixedCoordinates = newFixedCoordinates
        partFirstStored = offsets.partFirstStored
        shapeIndex = numbering.newShapeIndex
        moveBands(offsets.partOrder, offsets.destination, partsPerChunk)
        shrinkToFit()
    }

    /// Step 1 of `reorderShapes`: the new numbers of circles and polygons, in tree order.
    struct ShapeNumbering {
        static let none = UInt32.max
        /// The new circle number of each old circle (`none` for a removed one).
        var newCircleOf: [UInt32]
        /// The old polygon number of each new polygon.
        var polygonOrder: [UInt32]
        /// Each slot's new shape index (beacons keep theirs).
        var newShapeIndex: [UInt32]
        var circleCount: UInt32
    }

    /// Only the small per-slot arrays are read, at random, so each slot's reads start `lookahead` slots early.
    private func numberShapes(inOrderOf slotsInOrder: [RegionSlot]) -> ShapeNumbering {
        let none = ShapeNumbering.none
        var numbering = ShapeNumbering(newCircleOf: [UInt32](repeating: none, count: circles.count), polygonOrder: [],
                                       newShapeIndex: [UInt32](repeating: none, count: slotCount), circleCount: 0)
        numbering.polygonOrder.reserveCapacity(polygonPartStart.count - 1)
        let lookahead = 16
        for (k, slot) in slotsInOrder.enumerated() {
            if k + lookahead < slotsInOrder.count {
                let ahead = slotsInOrder[k + lookahead].index
                kinds.withUnsafeBufferPointer { prefetch($0.baseAddress! + ahead) }
                shapeIndex.withUnsafeBufferPointer { prefetch($0.baseAddress! + ahead) }
                numbering.newShapeIndex.withUnsafeBufferPointer { prefetch($0.baseAddress! + ahead) }
            }
            guard numbering.newShapeIndex[slot.index] == none else { continue }
            let old = Int(shapeIndex[slot.index])
            switch kinds[slot.index] {
            case .circle:
                numbering.newCircleOf[old] = numbering.circleCount
                numbering.newShapeIndex[slot.index] = numbering.circleCount
                numbering.circleCount += 1
            case .polygon:
                numbering.newShapeIndex[slot.index] = UInt32(numbering.polygonOrder.count)
                numbering.polygonOrder.append(UInt32(old))
            case .beacon, .removed:
                break
            }
        }
        for slot in 0..<slotCount where kinds[slot] == .beacon { numbering.newShapeIndex[slot] = shapeIndex[slot] }
        return numbering
    }

    /// Step 2 of `reorderShapes`: the polygons' part, ring and position offsets in their new order, and
    /// where each old part's vertices go.
    struct PolygonOffsets {
        var partStart: [UInt32] = [0]
        var ringStart: [UInt32] = [0]
        var positionStart: [UInt32] = [0]
        var polygonRingStart: [UInt32] = [0]
        var partSlots: [RegionSlot] = []
        var partFirstStored: [StoredPosition] = []
        /// Each old part's new stored position (each part stays in its array, fixed point or doubles); nil
        /// for parts dropped.
        var destination: [StoredPosition?]
        /// The old part number of each new part.
        var partOrder: [Int] = []
        var fixedPositions = 0
        var doublePositions = 0
    }

    private func polygonOffsets(inOrder polygonOrder: [UInt32]) -> PolygonOffsets {
        var offsets = PolygonOffsets(destination: [StoredPosition?](repeating: nil, count: partRingStart.count - 1))
        offsets.positionStart.reserveCapacity(ringPositionStart.count)
        offsets.ringStart.reserveCapacity(partRingStart.count)
        offsets.partSlots.reserveCapacity(partSlots.count)
        offsets.partFirstStored.reserveCapacity(partFirstStored.count)
        offsets.partStart.reserveCapacity(polygonOrder.count + 1)
        offsets.polygonRingStart.reserveCapacity(polygonOrder.count + 1)
        offsets.partOrder.reserveCapacity(partSlots.count)
        var position = 0
        for (k, old) in polygonOrder.lazy.map(Int.init).enumerated() {
            prefetchPolygon(polygonOrder, ahead: k)
            let firstPart = Int(polygonPartStart[old])
            let base = Int(ringPositionStart[Int(partRingStart[firstPart])])
            for part in firstPart..<Int(polygonPartStart[old + 1]) {
                for ring in Int(partRingStart[part])..<Int(partRingStart[part + 1]) {
                    offsets.positionStart.append(UInt32(position + Int(ringPositionStart[ring + 1]) - base))
                }
                offsets.ringStart.append(UInt32(offsets.positionStart.count - 1))
                offsets.partSlots.append(partSlots[part])
                offsets.partOrder.append(part)
                let count = positions(ofPart: part).count
                let destination: StoredPosition
                if partFirstStored[part].isFixedPoint {
                    destination = StoredPosition(fixedPoint: offsets.fixedPositions)
                    offsets.fixedPositions += count
                } else {
                    destination = StoredPosition(doubles: offsets.doublePositions)
                    offsets.doublePositions += count
                }
                offsets.destination[part] = destination
                offsets.partFirstStored.append(destination)
            }
            offsets.partStart.append(UInt32(offsets.ringStart.count - 1))
            offsets.polygonRingStart.append(UInt32(offsets.positionStart.count - 1))
            position = Int(offsets.positionStart[offsets.positionStart.count - 1])
        }
        return offsets
    }

    /// Step 3 of `reorderShapes` for circles: copied in their old order, halves on two cores (their new
    /// places do not overlap).
    private func reorderedCircles(_ newCircleOf: [UInt32], count: UInt32, _ partsPerChunk: Int) -> CacheLineArray<Circle> {
        var newCircles = CacheLineArray<Circle>()
        newCircles.append(count: Int(count)) { target in
            circles.withUnsafeBufferPointer { circles in
                inParallel(chunkRanges(of: circles.indices, atLeast: partsPerChunk, limit: 2)) { _, half in
                    for old in half where newCircleOf[old] != ShapeNumbering.none {
                        (target.baseAddress! + Int(newCircleOf[old])).initialize(to: circles[old])
                    }
                }
            }
        }
        return newCircles
    }

    /// Starts loading, for polygons further down `order`, what the re-layout reads of them at random:
    /// each level's index comes from the level before, so each starts when that one has surely loaded.
    @inline(__always)
    private func prefetchPolygon(_ order: [UInt32], ahead k: Int) {
        let far = 24, middle = 16, near = 8
        if k + far < order.count {
            polygonPartStart.withUnsafeBufferPointer { prefetch($0.baseAddress! + Int(order[k + far])) }
        }
        if k + middle < order.count {
            let part = Int(polygonPartStart[Int(order[k + middle])])
            partRingStart.withUnsafeBufferPointer { prefetch($0.baseAddress! + part) }
            partSlots.withUnsafeBufferPointer { prefetch($0.baseAddress! + part) }
            partFirstStored.withUnsafeBufferPointer { prefetch($0.baseAddress! + part) }
        }
        if k + near < order.count {
            let ring = Int(partRingStart[Int(polygonPartStart[Int(order[k + near])])])
            ringPositionStart.withUnsafeBufferPointer { prefetch($0.baseAddress! + ring) }
        }
    }

    /// The part headers in the new order (`partOrder`: old part number of each new part, `destination`:
    /// its new stored position). A small part's masks number edges within the part, so its header moves as
    /// it is; large parts' band lists and rasters are made again, which drops those of removed parts.
    private mutating func moveBands(_ partOrder: [Int], _ destination: [StoredPosition?], _ partsPerChunk: Int) {
        let old = partHeaders
        var moved = CacheLineArray<PartHeader>()
        // Halves on two cores, each read started 16 parts early: the old headers are read at random.
        let halves = chunkRanges(of: partOrder.indices, atLeast: partsPerChunk, limit: 2)
        var larges = [[Int]](repeating: [], count: halves.count)
        moved.append(count: partOrder.count) { headers in
            old.withUnsafeBufferPointer { old in
                larges.withUnsafeMutableBufferPointer { larges in
                    inParallel(halves) { half, range in
                        for new in range {
                            if new + 16 < range.upperBound { prefetch(old.baseAddress! + partOrder[new + 16]) }
                            var header = old[partOrder[new]]
                            header.firstPosition = destination[partOrder[new]]!
                            (headers.baseAddress! + new).initialize(to: header)
                            if !header.isMasked { larges[half].append(new) }
                        }
                    }
                }
            }
        }
        let large = larges.joined()
        partHeaders = moved
        bandEdgeStart = []
        bandEdges = []
        rasters = []
        rasterCells = []
        for part in large {
            partHeaders[part] = storingLists(bands(ofPart: part))
            appendRaster(ofPart: part)
        }
    }

    /// The vertices of one storage (`source`: fixed point or doubles), each old part's at its
    /// `destination` (nil for parts dropped). Halves of the parts are copied on two cores: their
    /// destinations do not overlap.
    private func copyVertices<T>(_ source: [T], _ destination: [StoredPosition?], fixedPoint: Bool, count: Int, _ partsPerChunk: Int) -> [T] {
        [T](unsafeUninitializedCapacity: 2 * count) { target, initialized in
            adviseHugePages(target.baseAddress!, byteCount: MemoryLayout<T>.stride * target.count)
            source.withUnsafeBufferPointer { source in
                inParallel(chunkRanges(of: destination.indices, atLeast: partsPerChunk, limit: 2)) { _, half in
                    for part in half {
                        guard let to = destination[part]?.index, partFirstStored[part].isFixedPoint == fixedPoint else { continue }
                        let from = partFirstStored[part].index
                        (target.baseAddress! + 2 * to).initialize(from: source.baseAddress! + 2 * from,
                                                                  count: 2 * positions(ofPart: part).count)
                    }
                }
            }
            initialized = 2 * count
        }
    }
}
