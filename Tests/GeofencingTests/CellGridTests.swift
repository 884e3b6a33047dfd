import CIntrinsics
import Testing
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

@Suite struct CellGridTests {
    @Test func pointFindsEveryBoxHoldingItAndFewOthers() {
        var rng = SeededGenerator(seed: 43)
        for count in [1, 2, 17, 300, 5000] {
            var boxes: [Double] = []
            for _ in 0..<count {
                let x = Double.random(in: 13...14, using: &rng), y = Double.random(in: 52...52.6, using: &rng)
                let w = Double.random(in: 0...0.05, using: &rng) * Double.random(in: 0...1, using: &rng)
                boxes += [x, y, x + w, y + w * 0.7]
            }
            let grid = CellGrid(boxes: boxes, payloads: (0..<UInt32(count)).map { $0 * 3 })
            for probe in 0..<400 {
                // Half the probes on box corners, where rounding would show.
                let b = 4 * Int.random(in: 0..<count, using: &rng)
                let x = probe % 2 == 0 ? boxes[b + 2 * Int.random(in: 0...1, using: &rng)] : Double.random(in: 12.9...14.1, using: &rng)
                let y = probe % 2 == 0 ? boxes[b + 1 + 2 * Int.random(in: 0...1, using: &rng)] : Double.random(in: 51.9...52.7, using: &rng)
                var got: [UInt32] = []
                grid.forEach(x: x, y: y, inside: { _ in }) { got.append($0.payload / 3) }
                let want = (0..<UInt32(count)).filter { i in
                    let b = 4 * Int(i)
                    return boxes[b] <= x && boxes[b + 1] <= y && boxes[b + 2] >= x && boxes[b + 3] >= y
                }
                #expect(Set(want).isSubset(of: got), "count \(count)")
                #expect(Set(got).count == got.count)
                #expect(got.count - want.count <= 1 + count / 50)
            }
        }
    }

    @Test func pointOnADegenerateBoxIsFound() {
        let grid = CellGrid(boxes: [13.4000001, 52.5200001, 13.4000001, 52.5200001], payloads: [7])
        var got: [UInt32] = []
        grid.forEach(x: 13.4000001, y: 52.5200001, inside: { _ in }) { got.append($0.payload) }
        #expect(got == [7])
        got = []
        grid.forEach(x: 13.4000002, y: 52.5200001, inside: { _ in }) { got.append($0.payload) }
        #expect(got.isEmpty)
    }

    @Test func sixteenBoxesAtOnceHoldExactlyThePointsTheirBoundsHold() {
        var rng = SeededGenerator(seed: 44)
        let edges: [UInt32] = [0, 1, 127, 128, 254, 255]
        for _ in 0..<2000 {
            let boxes = (0..<16).map { _ in
                (0..<4).reduce(UInt32(0)) { box, byte in
                    let v = Bool.random(using: &rng) ? edges.randomElement(using: &rng)! : UInt32.random(in: 0...255, using: &rng)
                    return box | v << (8 * UInt32(byte))
                }
            }
            let x = Bool.random(using: &rng) ? edges.randomElement(using: &rng)! : UInt32.random(in: 0...255, using: &rng)
            let y = Bool.random(using: &rng) ? boxes[0] >> 16 & 255 : UInt32.random(in: 0...255, using: &rng)
            let want = boxes.indices.reduce(UInt32(0)) { mask, k in
                let b = boxes[k]
                let holds = b & 255 <= x && x <= b >> 8 & 255 && b >> 16 & 255 <= y && y <= b >> 24
                return mask | (holds ? 1 << UInt32(k) : 0)
            }
            #expect(quantized_boxes_holding(boxes, x, y) == want)
        }
    }

    @Test func rasterPlacementIsTheExactEighthOfTheBoxForEverySpanAndPlace() {
        var rng = SeededGenerator(seed: 45)
        CellGrid.subcellReciprocals.withUnsafeBufferPointer { reciprocals in
            var wrong = 0
            for span in 0..<256 {
                let places = (span + 1) * CellGrid.placementUnits, low = UInt32.random(in: 0...UInt32(255 - span), using: &rng)
                for offset in 0..<places {
                    let place = Int(low) * CellGrid.placementUnits + offset
                    let got = CellGrid.subcell(place, low: low, high: low + UInt32(span), reciprocals)
                    if got != offset * SubcellFrame.size / places { wrong += 1 }
                }
            }
            #expect(wrong == 0)
        }
    }
}
