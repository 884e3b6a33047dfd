import Testing
import RegionIndex
import TestSupport

/// `RegionHandle.sort` must give exactly `sorted()`'s order, whatever path it takes: one look for handles in
/// order, insertion for a few, a radix sort on the bytes that differ for more.
@Suite struct RegionHandleSortTests {
    static func handles(count: Int, slotsBelow limit: UInt32, stores: [UInt32], _ random: inout SeededGenerator) -> [RegionHandle] {
        (0..<count).map { _ in
            RegionHandle(slot: RegionSlot(UInt32.random(in: 0..<limit, using: &random)),
                         store: stores[Int.random(in: 0..<stores.count, using: &random)])
        }
    }

    @Test(arguments: [0, 1, 2, 5, 31, 32, 33, 150, 600, 5000])
    func givesTheStandardOrder(count: Int) {
        var random = SeededGenerator(seed: UInt64(count) + 1)
        // Slots of a small set, of 100k and 1M regions, and up to 2^31; one store, or handles of two mixed.
        for limit: UInt32 in [3, 200, 100_000, 1_000_000, 1 << 31] {
            for stores: [UInt32] in [[7], [7, 0x8000_0001]] {
                var handles = Self.handles(count: count, slotsBelow: limit, stores: stores, &random)
                let expected = handles.sorted()
                RegionHandle.sort(&handles)
                #expect(handles == expected, "count \(count), slots below \(limit), stores \(stores)")
            }
        }
    }

    @Test func keepsHandlesAlreadyInOrderAndReversesReversedOnes() {
        var random = SeededGenerator(seed: 99)
        let ordered = Self.handles(count: 300, slotsBelow: 100_000, stores: [3], &random).sorted()
        var same = ordered
        RegionHandle.sort(&same)
        #expect(same == ordered)
        var reversed = Array(ordered.reversed())
        RegionHandle.sort(&reversed)
        #expect(reversed == ordered)
    }
}
