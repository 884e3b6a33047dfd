import CIntrinsics

/// A static packed Hilbert R-tree, as in flatbush: items sorted by the Hilbert value of their box centres,
/// packed into nodes of 16 children, parents built level by level, leaves first, root last.
/// Unlike flatbush, the 16 siblings of a group are stored column-wise (16 minX, 16 minY, 16 maxX, 16 maxY)
/// so one search step tests all 16 boxes with a few vector compares instead of 64 branches; a level's
/// last group is padded with empty boxes that match nothing. Boxes are 32-bit floats rounded outwards:
/// half the memory traffic of doubles, and a box can only grow, so no item is ever missed.
struct PackedRTree: Sendable {
    static let nodeSize = 16

    /// 64 floats per group of 16 sibling nodes.
    private(set) var boxes: [Float] = []
    /// Per node slot (16 per group): for a leaf the item's payload, for a parent the group of its children.
    private(set) var indices: [UInt32] = []
    /// Groups below this hold leaves.
    private var leafGroups = 0
    /// The group holding the root's children (the top level, 16 nodes or fewer).
    private var topGroup = -1
    private(set) var itemCount = 0

    init() {}

    /// Builds from item boxes (4 doubles each) and their payloads.
    init(boxes itemBoxes: [Double], payloads: [UInt32]) {
        let n = payloads.count
        guard n > 0 else { return }
        itemCount = n
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for i in 0..<n {
            minX = min(minX, itemBoxes[4 * i]); minY = min(minY, itemBoxes[4 * i + 1])
            maxX = max(maxX, itemBoxes[4 * i + 2]); maxY = max(maxY, itemBoxes[4 * i + 3])
        }
        // Hilbert value in the high half, item number in the low half: one integer sort orders the items.
        let width = maxX - minX, height = maxY - minY, left = minX, bottom = minY
        let hilbertMax = Double((1 << 16) - 1)
        var keys = [UInt64](repeating: 0, count: n)
        keys.withUnsafeMutableBufferPointer { keys in
            Self.inChunks(n) { range in
                for i in range {
                    let cx = (itemBoxes[4 * i] + itemBoxes[4 * i + 2]) / 2, cy = (itemBoxes[4 * i + 1] + itemBoxes[4 * i + 3]) / 2
                    let x = width > 0 ? UInt32(hilbertMax * (cx - left) / width) : 0
                    let y = height > 0 ? UInt32(hilbertMax * (cy - bottom) / height) : 0
                    keys[i] = UInt64(Self.hilbert(x, y)) << 32 | UInt64(i)
                }
            }
        }
        Self.sortByHighHalf(&keys)

        var groups = 0, levelNodes = n
        repeat {
            levelNodes = (levelNodes + 15) / 16
            groups += levelNodes
        } while levelNodes > 1
        boxes = [Float](repeating: 0, count: 64 * groups)
        indices = [UInt32](repeating: 0, count: 16 * groups)
        leafGroups = (n + 15) / 16
        boxes.withUnsafeMutableBufferPointer { boxes in
            indices.withUnsafeMutableBufferPointer { indices in
                itemBoxes.withUnsafeBufferPointer { itemBoxes in
                    let keys = keys
                    Self.inChunks(n) { range in
                        for position in range {
                            let i = Int(keys[position] & 0xFFFF_FFFF)
                            // Items come in Hilbert order, their boxes at random: start each read 16 items early.
                            if position + 16 < n { prefetch(itemBoxes.baseAddress! + 4 * Int(keys[position + 16] & 0xFFFF_FFFF)) }
                            let base = 64 * (position >> 4) + (position & 15)
                            boxes[base] = Self.floatBelow(itemBoxes[4 * i])
                            boxes[base + 16] = Self.floatBelow(itemBoxes[4 * i + 1])
                            boxes[base + 32] = Self.floatAbove(itemBoxes[4 * i + 2])
                            boxes[base + 48] = Self.floatAbove(itemBoxes[4 * i + 3])
                            indices[position] = payloads[i]
                        }
                    }
                }
            }
        }
        // Parents bottom-up: node k of a level covers group k of the level below.
        var childGroup = 0, childGroups = leafGroups, nodes = n
        while true {
            for empty in (16 * childGroup + nodes)..<(16 * (childGroup + childGroups)) {
                setBox(empty, .infinity, .infinity, -.infinity, -.infinity)
            }
            if childGroups == 1 { topGroup = childGroup; break }
            let parentGroup = childGroup + childGroups
            for g in 0..<childGroups {
                let base = 64 * (childGroup + g)
                var bMinX = Float.infinity, bMinY = Float.infinity, bMaxX = -Float.infinity, bMaxY = -Float.infinity
                for lane in 0..<16 {
                    bMinX = min(bMinX, boxes[base + lane]); bMinY = min(bMinY, boxes[base + 16 + lane])
                    bMaxX = max(bMaxX, boxes[base + 32 + lane]); bMaxY = max(bMaxY, boxes[base + 48 + lane])
                }
                setBox(16 * parentGroup + g, bMinX, bMinY, bMaxX, bMaxY)
                indices[16 * parentGroup + g] = UInt32(childGroup + g)
            }
            nodes = childGroups
            childGroup = parentGroup
            childGroups = (childGroups + 15) / 16
        }
    }

    /// Sets the box of node slot `slot` (group slot / 16, lane slot % 16).
    private mutating func setBox(_ slot: Int, _ minX: Float, _ minY: Float, _ maxX: Float, _ maxY: Float) {
        let base = 64 * (slot >> 4) + (slot & 15)
        boxes[base] = minX
        boxes[base + 16] = minY
        boxes[base + 32] = maxX
        boxes[base + 48] = maxY
    }

    /// Items per chunk when a build step runs on every core.
    static let itemsPerChunk = 100_000

    /// Calls `body` with consecutive ranges covering 0..<n, on every core when n is large.
    static func inChunks(_ n: Int, _ body: (Range<Int>) -> Void) {
        inParallel(chunkRanges(of: 0..<n, atLeast: itemsPerChunk)) { _, range in body(range) }
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

    private static let laneBits = SIMD16<UInt32>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)

    /// Calls `body` with the payload of every item whose box intersects the query box.
    /// The query is rounded to floats to the nearest: rounding is monotonic, so a float box bound that is
    /// below a double coordinate is never above its rounded value, and no item is missed.
    @inline(__always)
    func search(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (UInt32) -> Void) {
        guard topGroup >= 0 else { return }
        let qMinX = SIMD16<Float>(repeating: Float(minX)), qMinY = SIMD16<Float>(repeating: Float(minY))
        let qMaxX = SIMD16<Float>(repeating: Float(maxX)), qMaxY = SIMD16<Float>(repeating: Float(maxY))
        let leafGroups = self.leafGroups
        boxes.withUnsafeBytes { raw in
            indices.withUnsafeBufferPointer { idx in
                // Deep enough for 8 levels of 16 children: 2^32 items.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 8 * Self.nodeSize) { stack in
                    stack[0] = topGroup
                    var top = 1
                    while top > 0 {
                        top -= 1
                        let group = stack[top]
                        let base = 256 * group
                        let hit = (raw.loadUnaligned(fromByteOffset: base, as: SIMD16<Float>.self) .<= qMaxX)
                            .& (raw.loadUnaligned(fromByteOffset: base + 64, as: SIMD16<Float>.self) .<= qMaxY)
                            .& (raw.loadUnaligned(fromByteOffset: base + 128, as: SIMD16<Float>.self) .>= qMinX)
                            .& (raw.loadUnaligned(fromByteOffset: base + 192, as: SIMD16<Float>.self) .>= qMinY)
                        var lanes = SIMD16<UInt32>(repeating: 0).replacing(with: Self.laneBits, where: hit).wrappedSum()
                        while lanes != 0 {
                            let slot = 16 * group + lanes.trailingZeroBitCount
                            lanes &= lanes - 1
                            if group < leafGroups { body(idx[slot]) } else { stack[top] = Int(idx[slot]); top += 1 }
                        }
                    }
                }
            }
        }
    }

    /// Sorts keys by their high 32 bits, equal ones kept in order: two stable counting passes over 16-bit
    /// digits, least significant first. Keys made in item order thus end in the order `sort()` gives, in a
    /// fraction of its time (a tenth of a second less at a million items). Below a few thousand keys the passes'
    /// 65,536 counters cost more than the keys (the levels a daemon's `monitor` adds: 100 µs against `sort()`'s
    /// 24 µs at 1,000 keys, even at 2,000), so those are sorted whole, to the same order.
    static func sortByHighHalf(_ keys: inout [UInt64]) {
        guard keys.count > 2048 else {
            keys.sort()
            return
        }
        var buffer = [UInt64](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: (1 << 16) + 1)
        for shift: UInt64 in [32, 48] {
            keys.withUnsafeBufferPointer { source in
                buffer.withUnsafeMutableBufferPointer { target in
                    counts.withUnsafeMutableBufferPointer { counts in
                        counts.update(repeating: 0)
                        for key in source { counts[Int(key >> shift & 0xFFFF) + 1] += 1 }
                        for digit in 0..<(1 << 16) { counts[digit + 1] += counts[digit] }
                        for key in source {
                            let digit = Int(key >> shift & 0xFFFF)
                            target[counts[digit]] = key
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&keys, &buffer)
        }
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
