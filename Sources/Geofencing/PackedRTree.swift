/// A static packed Hilbert R-tree, as in flatbush: items sorted by the Hilbert value of their box centres,
/// packed into nodes of `nodeSize` children, parents built level by level. All boxes live in one flat
/// array (minX, minY, maxX, maxY per node, leaves first, root last), with one parallel index array:
/// for a leaf the item's payload, for a parent the position of its first child. Boxes are 32-bit floats
/// rounded outwards: half the memory traffic of doubles, and a box can only grow, never miss a point.
struct PackedRTree: Sendable {
    static let nodeSize = 16

    private(set) var boxes: [Float] = []
    private(set) var indices: [UInt32] = []
    /// End (exclusive, in nodes) of each level, leaves first.
    private var levelEnds: [Int] = []

    var itemCount: Int { levelEnds.first ?? 0 }

    init() {}

    /// Builds from item boxes (4 doubles each) and their payloads.
    init(boxes itemBoxes: [Double], payloads: [UInt32]) {
        let n = payloads.count
        guard n > 0 else { return }
        var total = n, levelSize = n
        levelEnds = [n]
        repeat {
            levelSize = (levelSize + Self.nodeSize - 1) / Self.nodeSize
            total += levelSize
            levelEnds.append(total)
        } while levelSize > 1

        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for i in 0..<n {
            minX = min(minX, itemBoxes[4 * i]); minY = min(minY, itemBoxes[4 * i + 1])
            maxX = max(maxX, itemBoxes[4 * i + 2]); maxY = max(maxY, itemBoxes[4 * i + 3])
        }
        // Hilbert value in the high half, item number in the low half: one integer sort orders the items.
        let width = maxX - minX, height = maxY - minY
        let hilbertMax = Double((1 << 16) - 1)
        var keys = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            let cx = (itemBoxes[4 * i] + itemBoxes[4 * i + 2]) / 2, cy = (itemBoxes[4 * i + 1] + itemBoxes[4 * i + 3]) / 2
            let x = width > 0 ? UInt32(hilbertMax * (cx - minX) / width) : 0
            let y = height > 0 ? UInt32(hilbertMax * (cy - minY) / height) : 0
            keys[i] = UInt64(Self.hilbert(x, y)) << 32 | UInt64(i)
        }
        keys.sort()

        boxes = [Float](repeating: 0, count: 4 * total)
        indices = [UInt32](repeating: 0, count: total)
        for (position, key) in keys.enumerated() {
            let i = Int(key & 0xFFFF_FFFF)
            boxes[4 * position] = Self.floatBelow(itemBoxes[4 * i])
            boxes[4 * position + 1] = Self.floatBelow(itemBoxes[4 * i + 1])
            boxes[4 * position + 2] = Self.floatAbove(itemBoxes[4 * i + 2])
            boxes[4 * position + 3] = Self.floatAbove(itemBoxes[4 * i + 3])
            indices[position] = payloads[i]
        }
        var childStart = 0, parent = n
        for level in 0..<(levelEnds.count - 1) {
            let end = levelEnds[level]
            var child = childStart
            while child < end {
                var bMinX = Float.infinity, bMinY = Float.infinity, bMaxX = -Float.infinity, bMaxY = -Float.infinity
                let first = child
                for _ in 0..<Self.nodeSize where child < end {
                    bMinX = min(bMinX, boxes[4 * child]); bMinY = min(bMinY, boxes[4 * child + 1])
                    bMaxX = max(bMaxX, boxes[4 * child + 2]); bMaxY = max(bMaxY, boxes[4 * child + 3])
                    child += 1
                }
                boxes[4 * parent] = bMinX; boxes[4 * parent + 1] = bMinY
                boxes[4 * parent + 2] = bMaxX; boxes[4 * parent + 3] = bMaxY
                indices[parent] = UInt32(first)
                parent += 1
            }
            childStart = end
        }
    }

    @inline(__always)
    static func floatBelow(_ v: Double) -> Float {
        let f = Float(v)
        return Double(f) > v ? f.nextDown : f
    }

    @inline(__always)
    static func floatAbove(_ v: Double) -> Float {
        let f = Float(v)
        return Double(f) < v ? f.nextUp : f
    }

    /// The leaves' payloads in tree (Hilbert) order.
    var leafPayloads: ArraySlice<UInt32> { indices[0..<itemCount] }

    /// Replaces every leaf's payload.
    mutating func mapLeafPayloads(_ transform: (UInt32) -> UInt32) {
        for i in 0..<itemCount { indices[i] = transform(indices[i]) }
    }

    /// Calls `body` with the payload of every item whose box intersects the query box.
    /// The query is rounded to floats to the nearest: rounding is monotonic, so a float box bound that is
    /// below a double coordinate is never above its rounded value, and no item is missed.
    @inline(__always)
    func search(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (UInt32) -> Void) {
        guard let root = levelEnds.last else { return }
        let minX = Float(minX), minY = Float(minY), maxX = Float(maxX), maxY = Float(maxY)
        let leafCount = levelEnds[0]
        boxes.withUnsafeBufferPointer { b in
            indices.withUnsafeBufferPointer { idx in
                // Deep enough for 8 levels of 16 children: 2^32 items.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 8 * Self.nodeSize) { stack in
                    stack[0] = root - 1
                    var top = 1
                    while top > 0 {
                        top -= 1
                        let first = Int(idx[stack[top]])
                        let last = min(first + Self.nodeSize, levelEnd(containing: first))
                        var child = first
                        while child < last {
                            let p = 4 * child
                            if b[p] <= maxX && b[p + 1] <= maxY && b[p + 2] >= minX && b[p + 3] >= minY {
                                if child < leafCount { body(idx[child]) } else { stack[top] = child; top += 1 }
                            }
                            child += 1
                        }
                    }
                }
            }
        }
    }

    /// End of the level holding `node`: the last parent of a level may have fewer than 16 children.
    @inline(__always)
    private func levelEnd(containing node: Int) -> Int {
        for end in levelEnds where node < end { return end }
        return levelEnds[levelEnds.count - 1]
    }

    /// The position of (x, y) along a Hilbert curve over a 2^16 × 2^16 grid (Hacker's Delight via flatbush).
    static func hilbert(_ x: UInt32, _ y: UInt32) -> UInt32 {
        var a = x ^ y, b = 0xFFFF ^ a, c = 0xFFFF ^ (x | y), d = x & (y ^ 0xFFFF)
        var A = a | (b >> 1), B = (a >> 1) ^ a, C = ((c >> 1) ^ (b & (d >> 1))) ^ c, D = ((a & (c >> 1)) ^ (d >> 1)) ^ d
        a = A; b = B; c = C; d = D
        A = (a & (a >> 2)) ^ (b & (b >> 2)); B = (a & (b >> 2)) ^ (b & ((a ^ b) >> 2))
        C ^= (a & (c >> 2)) ^ (b & (d >> 2)); D ^= (b & (c >> 2)) ^ ((a ^ b) & (d >> 2))
        a = A; b = B; c = C; d = D
        A = (a & (a >> 4)) ^ (b & (b >> 4)); B = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4))
        C ^= (a & (c >> 4)) ^ (b & (d >> 4)); D ^= (b & (c >> 4)) ^ ((a ^ b) & (d >> 4))
        a = A; b = B; c = C; d = D
        C ^= (a & (c >> 8)) ^ (b & (d >> 8)); D ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8))
        a = C ^ (C >> 1); b = D ^ (D >> 1)
        var i0 = x ^ y, i1 = b | (0xFFFF ^ (i0 | a))
        i0 = (i0 | (i0 << 8)) & 0x00FF00FF; i0 = (i0 | (i0 << 4)) & 0x0F0F0F0F
        i0 = (i0 | (i0 << 2)) & 0x33333333; i0 = (i0 | (i0 << 1)) & 0x55555555
        i1 = (i1 | (i1 << 8)) & 0x00FF00FF; i1 = (i1 | (i1 << 4)) & 0x0F0F0F0F
        i1 = (i1 | (i1 << 2)) & 0x33333333; i1 = (i1 | (i1 << 1)) & 0x55555555
        return (i1 << 1) | i0
    }

    var memoryFootprint: Int { boxes.capacity * 4 + indices.capacity * 4 }
}
