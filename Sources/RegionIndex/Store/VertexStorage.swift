import CIntrinsics

/// Coordinates with at most 7 decimals (OSM, time-zone data, most GeoJSON) stored losslessly as Int32
/// multiples of 1e-7°: a part whose every value x has `FixedPoint.value(k) == x` for its nearest k keeps
/// 8 bytes per vertex instead of 16. `value(k)` is a correctly rounded division of exact operands, so it
/// gives back the very double that was parsed, and containment stays what GEOS computes on those doubles.
enum FixedPoint {
    static let unitsPerDegree = 1e7

    @inline(__always)
    static func value(_ k: Int32) -> Double { Double(k) / unitsPerDegree }

    /// The k whose value is exactly x, if there is one.
    @inline(__always)
    static func exact(_ x: Double) -> Int32? {
        // Conversions truncate (inline, where `rounded()` calls libm): add ±0.5 to round to nearest.
        let scaled = x * unitsPerDegree
        guard abs(scaled) < 2_147_483_000 else { return nil }
        let k = Int32(scaled + (scaled < 0 ? -0.5 : 0.5))
        return value(k) == x ? k : nil
    }

    /// The largest k with `value(k) <= v`: as `value` is monotonic, `value(k) > v` ⟺ `k > floor(v)`, so
    /// a query compares integers and divides only for the few edges that straddle it in both directions.
    @inline(__always)
    static func floor(_ v: Double) -> Int {
        // The product is within 1.2e-7 of v·1e7, and value(k) rounds k·1e-7 by at most 1.4e-14° (half an ulp
        // at 256°): unless the product is within 1e-3 of an integer k, the answer is ⌊product⌋. Near k (points
        // given with 7 decimals or fewer are), value(k ± 1) is surely on either side of v: one division decides.
        let scaled = v * unitsPerDegree
        guard abs(scaled) < 3e9 else { return scaled < 0 ? Int(Int32.min) - 1 : Int(Int32.max) }
        let k = Int(scaled + (scaled < 0 ? -0.5 : 0.5)), offset = scaled - Double(k)
        if offset > 1e-3 { return k }
        if offset < -1e-3 { return k - 1 }
        return Double(k) / unitsPerDegree <= v ? k : k - 1
    }
}

/// A query point as fixed-point thresholds (see `FixedPoint.floor`).
struct FixedPointQuery {
    var x: Int
    var y: Int

    @inline(__always)
    init(x: Double, y: Double) {
        self.x = FixedPoint.floor(x)
        self.y = FixedPoint.floor(y)
    }
}

extension RegionStore {
    /// Appends the positions `range` of `values` (longitude, latitude pairs) as one part's vertices, in
    /// fixed point when every value is exact; returns the part's stored position.
    mutating func appendVertices(_ values: UnsafeBufferPointer<Double>, _ range: Range<Int>) -> StoredPosition {
        let slice = UnsafeBufferPointer(rebasing: values[2 * range.lowerBound..<2 * range.upperBound])
        let exact = slice.allSatisfy { FixedPoint.exact($0) != nil }
        if exact {
            let stored = StoredPosition(fixedPoint: fixedCoordinates.count / 2)
            fixedCoordinates.append(contentsOf: slice.lazy.map { FixedPoint.exact($0)! })
            return stored
        }
        let stored = StoredPosition(doubles: coordinates.count / 2)
        coordinates.append(contentsOf: slice)
        return stored
    }

    /// The vertex at a stored position.
    @inline(__always)
    func vertex(_ stored: StoredPosition) -> (x: Double, y: Double) {
        let i = stored.index
        if !stored.isFixedPoint { return (coordinates[2 * i], coordinates[2 * i + 1]) }
        return (FixedPoint.value(fixedCoordinates[2 * i]), FixedPoint.value(fixedCoordinates[2 * i + 1]))
    }

    /// Positions of part `part`, as the range of its first to its last position.
    @inline(__always)
    func positions(ofPart part: Int) -> Range<Int> {
        Int(ringPositionStart[Int(partRingStart[part])])..<Int(ringPositionStart[Int(partRingStart[part + 1])])
    }

    /// Calls `body` with every vertex of the part.
    @inline(__always)
    func forEachVertex(ofPart part: Int, _ body: (Double, Double) -> Void) {
        let stored = partFirstStored[part]
        for offset in 0..<positions(ofPart: part).count {
            let v = vertex(stored.advanced(by: offset))
            body(v.x, v.y)
        }
    }

    /// The part's bounding box. In fixed point, from the extreme integers: `FixedPoint.value` is monotonic,
    /// so four conversions give what converting every vertex would.
    func bounds(ofPart part: Int) -> GeoBox {
        let stored = partFirstStored[part], count = positions(ofPart: part).count
        guard stored.isFixedPoint else {
            var box = GeoBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            forEachVertex(ofPart: part) { x, y in
                box.minX = min(box.minX, x); box.maxX = max(box.maxX, x)
                box.minY = min(box.minY, y); box.maxY = max(box.maxY, y)
            }
            return box
        }
        return fixedCoordinates.withUnsafeBufferPointer { xy in
            var minX = Int32.max, minY = Int32.max, maxX = Int32.min, maxY = Int32.min
            for i in stored.index..<stored.index + count {
                minX = min(minX, xy[2 * i]); maxX = max(maxX, xy[2 * i])
                minY = min(minY, xy[2 * i + 1]); maxY = max(maxY, xy[2 * i + 1])
            }
            return GeoBox(minX: FixedPoint.value(minX), minY: FixedPoint.value(minY),
                          maxX: FixedPoint.value(maxX), maxY: FixedPoint.value(maxY))
        }
    }

    /// Calls `body` with every edge of the part (not the jumps between rings): its number (first
    /// position from the part's first) and its ends.
    @inline(__always)
    func forEachEdge(ofPart part: Int, _ body: (Int, Double, Double, Double, Double) -> Void) {
        let stored = partFirstStored[part], first = Int(ringPositionStart[Int(partRingStart[part])])
        for ring in Int(partRingStart[part])..<Int(partRingStart[part + 1]) {
            var a = vertex(stored.advanced(by: Int(ringPositionStart[ring]) - first))
            for i in Int(ringPositionStart[ring])..<(Int(ringPositionStart[ring + 1]) - 1) {
                let b = vertex(stored.advanced(by: i + 1 - first))
                body(i - first, a.x, a.y, b.x, b.y)
                a = b
            }
        }
    }

    /// Starts loading both ends of the edges in `mask`, numbered from stored position `first`.
    @inline(__always)
    func prefetchEdges(first: StoredPosition, mask: UInt64) {
        let index = first.index
        if !first.isFixedPoint {
            coordinates.withUnsafeBufferPointer { Self.prefetchEdges($0, index, mask) }
        } else {
            fixedCoordinates.withUnsafeBufferPointer { Self.prefetchEdges($0, index, mask) }
        }
    }

    /// One prefetch per cache line from the first edge's start to the last edge's end: a band's edges
    /// share a few lines, and a prefetch per edge would fill the queue of pending loads with repeats.
    @inline(__always)
    private static func prefetchEdges<T>(_ xy: UnsafeBufferPointer<T>, _ index: Int, _ mask: UInt64) {
        guard mask != 0 else { return }
        let vertexBytes = 2 * MemoryLayout<T>.stride
        let start = UnsafeRawPointer(xy.baseAddress! + 2 * index)
        var line = UInt(bitPattern: start + vertexBytes * mask.trailingZeroBitCount) & ~63
        let end = UInt(bitPattern: start + vertexBytes * (65 - mask.leadingZeroBitCount))
        while line < end {
            prefetch(UnsafeRawPointer(bitPattern: line))
            line += 64
        }
    }
}
