extension RegionStore {
    /// Rewrites circles and polygons in the given slot order (the index's Hilbert order), dropping the
    /// shapes of removed slots. Regions that are near each other on the ground then sit near each other
    /// in memory, so the few candidates of one query share cache lines: at a million regions this is
    /// worth more than any arithmetic saved in the tests themselves.
    mutating func reorderShapes<S: Sequence<UInt32>>(_ slotsInOrder: S) {
        var newCircles: [Circle] = [], newCircleSlots: [UInt32] = []
        var newPolygonCount = 0, newPartSlots: [UInt32] = [], newPartStart: [UInt32] = [0], newRingStart: [UInt32] = [0]
        var newPositionStart: [UInt32] = [0], newPolygonRingStart: [UInt32] = [0], newCoordinates: [Double] = []
        newCircles.reserveCapacity(circles.count)
        newCoordinates.reserveCapacity(coordinates.count)
        var newShapeIndex = shapeIndex
        var placed = [Bool](repeating: false, count: slotCount)
        for slot in slotsInOrder where !placed[Int(slot)] {
            placed[Int(slot)] = true
            let old = Int(shapeIndex[Int(slot)])
            switch kinds[Int(slot)] {
            case .circle:
                newShapeIndex[Int(slot)] = UInt32(newCircles.count)
                newCircles.append(circles[old])
                newCircleSlots.append(slot)
            case .polygon:
                newShapeIndex[Int(slot)] = UInt32(newPolygonCount)
                newPolygonCount += 1
                for part in Int(polygonPartStart[old])..<Int(polygonPartStart[old + 1]) {
                    for ring in Int(partRingStart[part])..<Int(partRingStart[part + 1]) {
                        let start = Int(ringPositionStart[ring]), end = Int(ringPositionStart[ring + 1])
                        newCoordinates.append(contentsOf: coordinates[(2 * start)..<(2 * end)])
                        newPositionStart.append(UInt32(newCoordinates.count / 2))
                    }
                    newRingStart.append(UInt32(newPositionStart.count - 1))
                    newPartSlots.append(slot)
                }
                newPartStart.append(UInt32(newRingStart.count - 1))
                newPolygonRingStart.append(UInt32(newPositionStart.count - 1))
            case .beacon, .removed:
                break
            }
        }
        for slot in 0..<slotCount where !placed[slot] && kinds[slot] != .beacon {
            precondition(kinds[slot] == .removed, "reorderShapes needs every live geographic slot")
            newShapeIndex[slot] = .max
        }
        circles = newCircles
        circleSlots = newCircleSlots
        partSlots = newPartSlots
        polygonPartStart = newPartStart
        partRingStart = newRingStart
        ringPositionStart = newPositionStart
        polygonRingStart = newPolygonRingStart
        coordinates = newCoordinates
        shapeIndex = newShapeIndex
        bandHeaders = []
        bandMasks = []
        bandEdgeStart = []
        bandEdges = []
        for part in 0..<(partRingStart.count - 1) { appendBands(ofPart: part) }
    }
}
