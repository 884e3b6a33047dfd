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
    mutating func reorderShapes(_ slotsInOrder: [UInt32], partsPerChunk: Int = Self.partsPerChunk) {
        appendMissingBands()
        // New numbers for circles and polygons, in tree order; only the small per-slot arrays are read,
        // at random, so each slot's reads start `lookahead` slots early.
        let none = UInt32.max
        var newCircleOf = [UInt32](repeating: none, count: circles.count)
        var polygonOrder: [UInt32] = []   // old polygon number of each new polygon
        polygonOrder.reserveCapacity(polygonPartStart.count - 1)
        var newShapeIndex = [UInt32](repeating: none, count: slotCount)
        var circleCount: UInt32 = 0
        let lookahead = 16
        for (k, slot) in slotsInOrder.enumerated() {
            if k + lookahead < slotsInOrder.count {
                let ahead = Int(slotsInOrder[k + lookahead])
                kinds.withUnsafeBufferPointer { prefetch($0.baseAddress! + ahead) }
                shapeIndex.withUnsafeBufferPointer { prefetch($0.baseAddress! + ahead) }
                newShapeIndex.withUnsafeBufferPointer { prefetch($0.baseAddress! + ahead) }
            }
            guard newShapeIndex[Int(slot)] == none else { continue }
            let old = Int(shapeIndex[Int(slot)])
            switch kinds[Int(slot)] {
            case .circle:
                newCircleOf[old] = circleCount
                newShapeIndex[Int(slot)] = circleCount
                circleCount += 1
            case .polygon:
                newShapeIndex[Int(slot)] = UInt32(polygonOrder.count)
                polygonOrder.append(UInt32(old))
            case .beacon, .removed:
                break
            }
        }
        for slot in 0..<slotCount where kinds[slot] == .beacon { newShapeIndex[slot] = shapeIndex[slot] }

        // The new part, ring and position offsets, and where each old part's vertices go (stored
        // positions: each part stays in its array, fixed point or doubles).
        var newPartStart: [UInt32] = [0], newRingStart: [UInt32] = [0], newPositionStart: [UInt32] = [0]
        var newPolygonRingStart: [UInt32] = [0], newPartSlots: [UInt32] = [], newPartFirstStored: [UInt32] = []
        newPositionStart.reserveCapacity(ringPositionStart.count)
        newRingStart.reserveCapacity(partRingStart.count)
        newPartSlots.reserveCapacity(partSlots.count)
        newPartFirstStored.reserveCapacity(partFirstStored.count)
        newPartStart.reserveCapacity(polygonOrder.count + 1)
        newPolygonRingStart.reserveCapacity(polygonOrder.count + 1)
        var destination = [Int](repeating: -1, count: partRingStart.count - 1)
        var partOrder: [Int] = []   // old part number of each new part
        partOrder.reserveCapacity(partSlots.count)
        var position = 0, fixedPosition = 0, doublePosition = 0
        for (k, old) in polygonOrder.lazy.map(Int.init).enumerated() {
            prefetchPolygon(polygonOrder, ahead: k)
            let firstPart = Int(polygonPartStart[old])
            let base = Int(ringPositionStart[Int(partRingStart[firstPart])])
            for part in firstPart..<Int(polygonPartStart[old + 1]) {
                for ring in Int(partRingStart[part])..<Int(partRingStart[part + 1]) {
                    newPositionStart.append(UInt32(position + Int(ringPositionStart[ring + 1]) - base))
                }
                newRingStart.append(UInt32(newPositionStart.count - 1))
                newPartSlots.append(partSlots[part])
                partOrder.append(part)
                let count = positions(ofPart: part).count
                if Int(partFirstStored[part]) & Self.doubleStorage != 0 {
                    destination[part] = doublePosition | Self.doubleStorage
                    doublePosition += count
                } else {
                    destination[part] = fixedPosition
                    fixedPosition += count
                }
                newPartFirstStored.append(UInt32(destination[part]))
            }
            newPartStart.append(UInt32(newRingStart.count - 1))
            newPolygonRingStart.append(UInt32(newPositionStart.count - 1))
            position = Int(newPositionStart[newPositionStart.count - 1])
        }

        // The copies, in old order.
        let newCoordinates = copyVertices(coordinates, destination, doubleStorage: true, count: doublePosition, partsPerChunk)
        let newFixedCoordinates = copyVertices(fixedCoordinates, destination, doubleStorage: false, count: fixedPosition, partsPerChunk)
        var newCircles = CacheLineArray<Circle>()
        newCircles.append(count: Int(circleCount)) { target in
            circles.withUnsafeBufferPointer { circles in
                // Halves of the old circles on two cores: their new places do not overlap.
                inParallel(chunkRanges(of: circles.indices, atLeast: partsPerChunk, limit: 2)) { _, half in
                    for old in half where newCircleOf[old] != none {
                        (target.baseAddress! + Int(newCircleOf[old])).initialize(to: circles[old])
                    }
                }
            }
        }

        circles = newCircles
        partSlots = newPartSlots
        polygonPartStart = newPartStart
        partRingStart = newRingStart
        ringPositionStart = newPositionStart
        polygonRingStart = newPolygonRingStart
        coordinates = newCoordinates
        fixedCoordinates = newFixedCoordinates
        partFirstStored = newPartFirstStored
        shapeIndex = newShapeIndex
        moveBands(partOrder, destination, partsPerChunk)
        shrinkToFit()
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
    private mutating func moveBands(_ partOrder: [Int], _ destination: [Int], _ partsPerChunk: Int) {
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
                            header.firstPosition = UInt32(destination[partOrder[new]])
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

    /// The vertices of one storage (`source`: doubles or fixed point), each old part's at its
    /// `destination` (a stored position; -1 for parts dropped). Halves of the parts are copied on two
    /// cores: their destinations do not overlap.
    private func copyVertices<T>(_ source: [T], _ destination: [Int], doubleStorage: Bool, count: Int, _ partsPerChunk: Int) -> [T] {
        [T](unsafeUninitializedCapacity: 2 * count) { target, initialized in
            adviseHugePages(target.baseAddress!, byteCount: MemoryLayout<T>.stride * target.count)
            source.withUnsafeBufferPointer { source in
                inParallel(chunkRanges(of: destination.indices, atLeast: partsPerChunk, limit: 2)) { _, half in
                    for part in half
                    where destination[part] >= 0 && (destination[part] & Self.doubleStorage != 0) == doubleStorage {
                        let from = Int(partFirstStored[part]) & Self.storedIndexMask
                        let to = destination[part] & Self.storedIndexMask
                        (target.baseAddress! + 2 * to).initialize(from: source.baseAddress! + 2 * from,
                                                                  count: 2 * positions(ofPart: part).count)
                    }
                }
            }
            initialized = 2 * count
        }
    }
}
