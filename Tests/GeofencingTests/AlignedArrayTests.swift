import Testing
@testable import Geofencing

@Suite struct AlignedArrayTests {
    static func header(_ k: Int) -> PartHeader {
        PartHeader(minY: Double(k), scale: 1, firstPosition: 0, slot: UInt32(k), count: 8, raster: -1)
    }

    @Test func partHeadersAndCirclesFillWholeCacheLinesFromALineBoundary() {
        var a = AlignedArray<PartHeader>()
        for k in 0..<100 { a.append(Self.header(k)) }
        #expect(MemoryLayout<PartHeader>.stride == 64 && MemoryLayout<RegionStore.Circle>.stride == 64)
        a.withUnsafeBufferPointer { #expect(Int(bitPattern: $0.baseAddress) % 64 == 0) }
    }

    @Test func aCopyIsIndependentOfTheOriginal() {
        var a = AlignedArray<PartHeader>()
        for k in 0..<100 { a.append(Self.header(k)) }
        var b = a
        b[7].slot = 1000
        b.append(a[0])
        #expect(a[7].slot == 7 && b[7].slot == 1000 && a.count == 100 && b.count == 101)
        b.shrinkToFit()
        #expect(b.capacity == 101 && b[100].minY == 0 && b[99].slot == 99)
    }

    @Test func largeStorageIsMappedOnAHugePageBoundaryAndHoldsItsValues() {
        let count = 3 << 20   // 12 MB of UInt32: mapped on its own
        var a = AlignedArray<UInt32>(repeating: 7, count: count)
        a.withUnsafeBufferPointer { #expect(Int(bitPattern: $0.baseAddress) % (2 << 20) == 0) }
        a.withUnsafeMutableBufferPointer { for i in $0.indices { $0[i] = UInt32(i) } }
        let copy = AlignedArray(Array(0..<UInt32(count)))
        #expect(a[count - 1] == UInt32(count - 1) && copy[count - 1] == a[count - 1] && a[0] == 0)
    }
}
