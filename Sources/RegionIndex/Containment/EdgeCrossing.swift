/// One step of the crossing-number test: does the ray from the point towards +x cross the edge from
/// position i to i + 1? Decided by the edge's x-range when it can be, else by the side of the edge the
/// point is on (a cross product: no division). Both storages give the same answer on the same doubles.
enum EdgeCrossing {
    @inline(__always)
    static func crosses(_ xy: UnsafePointer<Double>, _ i: Int, x: Double, y: Double) -> Bool {
        let y0 = xy[2 * i + 1], y1 = xy[2 * i + 3]
        guard (y0 > y) != (y1 > y) else { return false }
        let x0 = xy[2 * i], x1 = xy[2 * i + 2]
        if x < x0 && x < x1 { return true }
        if x >= x0 && x >= x1 { return false }
        let side = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)
        return (side > 0) == (y1 > y0)
    }

    /// The same on fixed-point vertices: the comparisons with the point are integer comparisons with its
    /// thresholds `query`; only an edge straddling the point both ways is turned back into doubles.
    @inline(__always)
    static func crosses(_ xy: UnsafePointer<Int32>, _ i: Int, _ query: FixedPointQuery, x: Double, y: Double) -> Bool {
        let k0 = Int(xy[2 * i + 1]), k1 = Int(xy[2 * i + 3])
        guard (k0 > query.y) != (k1 > query.y) else { return false }
        let j0 = Int(xy[2 * i]), j1 = Int(xy[2 * i + 2])
        if j0 > query.x && j1 > query.x { return true }
        if j0 <= query.x && j1 <= query.x { return false }
        let x0 = FixedPoint.value(xy[2 * i]), x1 = FixedPoint.value(xy[2 * i + 2])
        let y0 = FixedPoint.value(xy[2 * i + 1]), y1 = FixedPoint.value(xy[2 * i + 3])
        let side = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)
        return (side > 0) == (y1 > y0)
    }
}
