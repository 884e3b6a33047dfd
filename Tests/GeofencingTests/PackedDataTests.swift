import Testing
@testable import RegionIndex

/// The names given to the index's packed integers: each takes exactly the room of the integer it wraps,
/// and reads back what it was made from, at the extremes of each field.
@Suite struct PackedDataTests {
    @Test func wrappersTakeTheRoomOfTheIntegersTheyWrap() {
        #expect(MemoryLayout<PackedBox>.stride == 4 && MemoryLayout<ShapeReference>.stride == 4)
        #expect(MemoryLayout<StoredPosition>.stride == 4 && MemoryLayout<UndecidedEntry>.stride == 4)
        #expect(MemoryLayout<GridSubcell>.stride == MemoryLayout<Int>.stride)
    }

    @Test func packedBoxKeepsWestEastSouthNorthInTheBytesTheKernelReads() {
        // quantized_boxes_holding reads west, east, south, north from the low byte up.
        #expect(PackedBox(west: 1, east: 2, south: 3, north: 4).rawValue == 0x0403_0201)
        for (west, east, south, north) in [(0, 255, 0, 255), (255, 255, 255, 255), (0, 0, 0, 0), (17, 200, 3, 254)] {
            let box = PackedBox(west: west, east: east, south: south, north: north)
            #expect([box.west, box.east, box.south, box.north] == [west, east, south, north].map(UInt32.init))
        }
    }

    @Test func shapeReferencesTellCirclesFromPolygonPartsOfTheSameNumber() {
        for number in [0, 1, 12_345, Int(UInt32.max >> 1)] {
            let circle = ShapeReference(circle: number), part = ShapeReference(part: number)
            #expect(circle != part)
            #expect(circle.isCircle && circle.circleNumber == number)
            #expect(!part.isCircle && part.partNumber == number)
            #expect(ShapeReference(rawValue: part.rawValue) == part)
        }
    }

    @Test func storedPositionsKeepTheirArrayWhenAdvanced() {
        let last = Int(UInt32.max >> 1)
        for index in [0, 7, last - 10] {
            let fixed = StoredPosition(fixedPoint: index), doubles = StoredPosition(doubles: index)
            #expect(fixed.isFixedPoint && fixed.index == index)
            #expect(!doubles.isFixedPoint && doubles.index == index)
            #expect(fixed.advanced(by: 10) == StoredPosition(fixedPoint: index + 10))
            #expect(doubles.advanced(by: 10) == StoredPosition(doubles: index + 10))
        }
    }

    @Test func bandCountsNameSmallLargeAndRemovedParts() {
        func header(bands: UInt32) -> PartHeader {
            PartHeader(minY: 0, scale: 1, firstPosition: StoredPosition(fixedPoint: 0), slot: RegionSlot(0), bandCount: bands, raster: -1)
        }
        #expect(header(bands: 8).kind == .small && header(bands: 4).kind == .small)
        #expect(header(bands: 16).kind == .large && header(bands: 1 << 22).kind == .large)
        var removed = header(bands: 8)
        removed.markRemoved()
        #expect(removed.kind == .removed && !removed.isMasked)
    }

    @Test func undecidedEntriesTellACircleTagFromAPartPayload() {
        let circle = CellEntry(circle: .undecided, tag: 41).undecided
        #expect(circle.isCircle && circle.circleTag == 41)
        let part = CellEntry(raster: .undecided, payload: ShapeReference(part: 9).rawValue, tag: 41).undecided
        #expect(!part.isCircle && part.payload == ShapeReference(part: 9).rawValue)
    }

    @Test func gridSubcellsSplitIntoCellAndPlaceWithinIt() {
        let subcell = GridSubcell(rawValue: 3 * GridSubcell.perCell + 17)
        #expect(subcell.cell == 3 && subcell.withinCell == 17 && subcell.cellStart == 3 * GridSubcell.perCell)
        #expect(GridSubcell(rawValue: 255).cell == 0 && GridSubcell(rawValue: 256).cell == 1)
    }
}
