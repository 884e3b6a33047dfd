import Testing
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

@Suite struct PackedRTreeTests {
    @Test func searchFindsExactlyTheBoxesThatMeetTheQuery() {
        var rng = SeededGenerator(seed: 41)
        for count in [1, 15, 16, 17, 300, 5000] {
            var boxes: [Double] = []
            for _ in 0..<count {
                let x = Double.random(in: -180...179, using: &rng), y = Double.random(in: -90...89, using: &rng)
                let w = Double.random(in: 0...1, using: &rng) * Double.random(in: 0...1, using: &rng)
                boxes += [x, y, x + w, y + w * 0.7]
            }
            let tree = PackedRTree(boxes: boxes, payloads: (0..<UInt32(count)).map { $0 * 3 })
            for _ in 0..<300 {
                let x = Double.random(in: -180...180, using: &rng), y = Double.random(in: -90...90, using: &rng)
                let r = Double.random(in: 0...0.5, using: &rng)
                var got: [UInt32] = []
                tree.search(minX: x - r, minY: y - r, maxX: x + r, maxY: y + r) { got.append($0 / 3) }
                let want = (0..<UInt32(count)).filter { i in
                    let b = 4 * Int(i)
                    return boxes[b] <= x + r && boxes[b + 1] <= y + r && boxes[b + 2] >= x - r && boxes[b + 3] >= y - r
                }
                // Float boxes are rounded outwards: never a miss, an extra only within a float's width.
                #expect(Set(want).isSubset(of: got), "count \(count)")
                #expect(got.count - want.count <= 2)
                #expect(Set(got).count == got.count)
            }
        }
    }

    @Test func keysSortByTheirHighHalfInItemOrderOnBothSidesOfTheSmallSortThreshold() {
        var rng = SeededGenerator(seed: 7)
        for count in [0, 1, 1000, 2048, 2049, 70_000] {
            // Few distinct Hilbert values, so that many keys tie on the high half and only the item order parts them.
            let keys = (0..<UInt64(count)).map { UInt64.random(in: 0...300, using: &rng) << 32 | $0 }
            var sorted = keys
            PackedRTree.sortByHighHalf(&sorted)
            #expect(sorted == keys.sorted(), "count \(count)")
        }
    }

    @Test func pointOnADegenerateBoxIsFound() {
        let tree = PackedRTree(boxes: [13.4000001, 52.5200001, 13.4000001, 52.5200001], payloads: [7])
        var got: [UInt32] = []
        tree.search(minX: 13.4000001, minY: 52.5200001, maxX: 13.4000001, maxY: 52.5200001) { got.append($0) }
        #expect(got == [7])
    }

    @Test func buildStepsSplitTheirItemsIntoConsecutiveChunksForTheCores() {
        for (range, size, limit) in [(0..<0, 10, 8), (5..<9, 10, 8), (0..<1_000_003, 100_000, 8), (7..<250_007, 50_000, 2)] {
            let chunks = chunkRanges(of: range, atLeast: size, limit: limit)
            #expect(chunks.first?.lowerBound == range.lowerBound && chunks.last?.upperBound == range.upperBound)
            #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(chunks.count == max(1, min(limit, range.count / size)))
            #expect(chunks.count == 1 || chunks.allSatisfy { $0.count >= size })
        }
    }
}
