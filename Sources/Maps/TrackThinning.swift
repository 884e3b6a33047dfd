/// A point in SVG pixels.
public struct PixelPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Thins a projected track to what the pixel grid can show. Two passes, each allowed half the tolerance:
/// a point within half a tolerance of the last kept one is dropped (a parked car's thousand fixes become one),
/// then Douglas–Peucker against segments (not lines) on what is left. So no point of the full track lies
/// farther than `tolerance` from the drawn polyline, which is what the tests pin.
public enum TrackThinning {
    /// Indices into `points` of the vertices to draw, in order; the first and last are always kept.
    public static func keptIndices(_ points: [PixelPoint], tolerance: Double = 1) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        let half = tolerance / 2
        var candidates: [Int] = [0]
        candidates.reserveCapacity(min(points.count, 1 << 16))
        for i in 1..<(points.count - 1) where squaredDistance(points[i], points[candidates.last!]) > half * half {
            candidates.append(i)
        }
        candidates.append(points.count - 1)

        var keep = [Bool](repeating: false, count: candidates.count)
        keep[0] = true
        keep[candidates.count - 1] = true
        // An explicit stack: a million-fix track would recurse too deep for the thread's stack.
        var stack: [(Int, Int)] = [(0, candidates.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            let a = points[candidates[first]], b = points[candidates[last]]
            var farthest = first, farthestDistance = half * half
            for k in (first + 1)..<last {
                let d = squaredSegmentDistance(points[candidates[k]], a, b)
                if d > farthestDistance { farthest = k; farthestDistance = d }
            }
            guard farthest != first else { continue }
            keep[farthest] = true
            stack.append((first, farthest))
            stack.append((farthest, last))
        }
        return candidates.indices.filter { keep[$0] }.map { candidates[$0] }
    }

    public static func squaredDistance(_ p: PixelPoint, _ q: PixelPoint) -> Double {
        (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)
    }

    /// Squared distance from `p` to the segment from `a` to `b`.
    public static func squaredSegmentDistance(_ p: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        guard length > 0 else { return squaredDistance(p, a) }
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
        return squaredDistance(p, PixelPoint(x: a.x + t * dx, y: a.y + t * dy))
    }
}
