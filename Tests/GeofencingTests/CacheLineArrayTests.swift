import Testing
@testable import Geofencing
@testable import RegionIndex
@testable import Regions

@Suite struct CacheLineArrayTests {
    static func header(_ k: Int) -> PartHeader {
        PartHeader(minY: Double(k), scale: 1, firstPosition: StoredPosition(fixedPoint: 0), slot: RegionSlot(UInt32(k)), bandCount: 8, raster: -1)
    }

    @Test func partHeadersAndCirclesFillWholeCacheLinesFromALineBoundary() {
        var a = CacheLineArray<PartHeader>()
        for k in 0..<100 { a.append(Self.header(k)) }
        #expect(MemoryLayout<PartHeader>.stride == 64 && MemoryLayout<RegionStore.Circle>.stride == 64)
        a.withUnsafeBufferPointer { #expect(Int(bitPattern: $0.baseAddress) % 64 == 0) }
    }

    @Test func aCopyIsIndependentOfTheOriginal() {
        var a = CacheLineArray<PartHeader>()
        for k in 0..<100 { a.append(Self.header(k)) }
        var b = a
        b[7].slot = RegionSlot(UInt32(1000))
        b.append(a[0])
        #expect(a[7].slot.rawValue == 7 && b[7].slot.rawValue == 1000 && a.count == 100 && b.count == 101)
        b.shrinkToFit()
        #expect(b.capacity == 101 && b[100].minY == 0 && b[99].slot.rawValue == 99)
        var c = b
        c.append(count: 2) { new in
            for k in new.indices { (new.baseAddress! + k).initialize(to: Self.header(200 + k)) }
        }
        #expect(c.count == 103 && b.count == 101 && c[102].slot.rawValue == 201 && c[99].slot.rawValue == 99)
    }
}

@Suite struct HugePageTests {
    @Test func onlyWholeHugePagesInsideABufferAreAdvised() {
        let huge = UInt(2 << 20)
        #expect(wholeHugePages(0x7000_0010, byteCount: Int(huge) + 100) == nil)
        #expect(wholeHugePages(0x7000_0000, byteCount: 2 * Int(huge)) == 0x7000_0000..<0x7040_0000)
        // Not aligned: the partial pages at either end are left out.
        #expect(wholeHugePages(0x7000_0010, byteCount: 3 * Int(huge)) == 0x7020_0000..<0x7060_0000)
        #expect(wholeHugePages(0x7000_0010, byteCount: 2 * Int(huge)) == 0x7020_0000..<0x7040_0000)
        #expect(wholeHugePages(0x701F_FFF0, byteCount: 2 * Int(huge) + 0x10) == 0x7020_0000..<0x7060_0000)
    }
}
