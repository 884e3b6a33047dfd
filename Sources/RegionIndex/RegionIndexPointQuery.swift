import CIntrinsics
import GeoWakeCore

extension RegionIndex {
    /// Undecided candidates staged per point query; any beyond (only in piles of overlapping regions) are
    /// tested after, one by one, walking the cell again. The bench's million regions put 800 to 2,400 around
    /// every fix of the Berlin drive: at 64, that one-by-one path was about a quarter of the monitor's profile
    /// there, and 512 made the monitor 1.27 times as fast (`geowake bench replay`, 258 to 203 µs a fix). The
    /// query's four buffers take 38 KB (`orderedHits` included): `PointQueryScratch`.
    package static let stagedCandidates = 512

    /// Regions the grid decides inside, kept per point query to be reported in handle order (16 KB of stack);
    /// any beyond are reported at once, out of order.
    package static let orderedHits = 2048

    /// Calls `body` once for every region containing the point, usually in handle order: the grid's cells list
    /// their entries by slot (`CellGrid.orderCellsByTag`), and the candidates tested exactly are sorted and
    /// merged in. Only piles beyond `stagedCandidates` or `orderedHits` come partly out of order.
    ///
    /// The grid answers most candidates from its entries (six in seven at a million regions: circles all
    /// but within a hair of their boundary, polygon parts from their rasters). The others go in stages,
    /// each starting the memory reads the next one needs before it uses any: their records (circles,
    /// polygon part headers with their band masks, a cache line each); the edges in the point's band of
    /// each small polygon part. At a million regions nearly every read of a stage misses the cache, and
    /// this way a query waits for about one miss per stage instead of one per read.
    public func forEachRegion(containing point: Coordinate, _ body: (RegionHandle) -> Void) {
        withUnsafeTemporaryAllocation(of: ShapeReference.self, capacity: Self.stagedCandidates) { shapes in
            withUnsafeTemporaryAllocation(of: PendingPart.self, capacity: Self.stagedCandidates) { pending in
                withUnsafeTemporaryAllocation(of: RegionHandle.self, capacity: Self.orderedHits + Self.stagedCandidates) { decided in
                    withUnsafeTemporaryAllocation(of: RegionHandle.self, capacity: Self.stagedCandidates) { tested in
                        withRegions(containing: point, shapes, pending, decided, tested, overflow: body) {
                            for handle in $0 { body(handle) }
                        }
                    }
                }
            }
        }
    }

    /// Appends the regions containing the point to `handles`, in the order `forEachRegion(containing:)` gives
    /// them, with the query's buffers taken from `scratch` and the hits appended in one copy (appended one by
    /// one through a closure, each paid a call and a uniqueness check).
    public func appendRegions(containing point: Coordinate, to handles: inout [RegionHandle], scratch: inout PointQueryScratch) {
        var early: [RegionHandle] = []
        scratch.withBuffers { shapes, pending, decided, tested in
            withRegions(containing: point, shapes, pending, decided, tested, overflow: { early.append($0) }) {
                handles.append(contentsOf: $0)
            }
        }
        if !early.isEmpty { handles.append(contentsOf: early) }
    }

    /// The query itself, in the buffers given (`decided` with room for `orderedHits` and `stagedCandidates`):
    /// hands `overflow` the regions beyond `orderedHits` as it finds them, then `ordered` the rest, in handle
    /// order.
    private func withRegions(containing point: Coordinate, _ shapes: UnsafeMutableBufferPointer<ShapeReference>,
                             _ pending: UnsafeMutableBufferPointer<PendingPart>, _ decided: UnsafeMutableBufferPointer<RegionHandle>,
                             _ tested: UnsafeMutableBufferPointer<RegionHandle>, overflow: (RegionHandle) -> Void,
                             _ ordered: (UnsafeBufferPointer<RegionHandle>) -> Void) {
        guard let (x, y) = Self.normalized(point) else { return }
        let identity = store.identity
        var count = 0, overflowed = false, decidedCount = 0
        forEachCandidate(x: x, y: y, inside: { slot in
            let handle = RegionHandle(slot: slot, store: identity)
            if decidedCount < Self.orderedHits {
                decided[decidedCount] = handle
                decidedCount += 1
            } else {
                overflow(handle)
            }
        }) { shape in
            if count < Self.stagedCandidates {
                shapes[count] = shape
                count += 1
            } else {
                overflowed = true
            }
        }
        if overflowed { testCandidates(x: x, y: y, after: count, overflow) }
        // Each staged candidate gives at most one hit.
        var testedCount = 0
        testStaged(x: x, y: y, UnsafeMutableBufferPointer(rebasing: shapes[0..<count]), pending) {
            tested[testedCount] = RegionHandle(slot: $0, store: identity)
            testedCount += 1
        }
        let hits = UnsafeMutableBufferPointer(rebasing: tested[0..<testedCount])
        RegionHandle.sort(hits)
        // Merged into `decided` from the end, so that nothing is moved twice.
        var i = decidedCount - 1, j = testedCount - 1, k = decidedCount + testedCount - 1
        while j >= 0 {
            if i >= 0 && hits[j] < decided[i] {
                decided[k] = decided[i]
                i -= 1
            } else {
                decided[k] = hits[j]
                j -= 1
            }
            k -= 1
        }
        ordered(UnsafeBufferPointer(rebasing: decided[0..<decidedCount + testedCount]))
    }

    /// Tests the staged candidates exactly, calling `hit` with the slot of each that contains the point.
    @inline(__always)
    private func testStaged(x: Double, y: Double, _ shapes: UnsafeMutableBufferPointer<ShapeReference>,
                            _ pending: UnsafeMutableBufferPointer<PendingPart>, _ hit: (RegionSlot) -> Void) {
        store.prefetchRecords(UnsafeBufferPointer(shapes))
        // Small polygons first, so that their edges load while the circles are tested.
        var parts = 0, others = 0
        for shape in shapes {
            if !shape.isCircle {
                let header = store.partHeaders[shape.partNumber]
                if header.isMasked {
                    let mask = header.mask(y: y)
                    if mask != 0 {
                        store.prefetchEdges(first: header.firstPosition, mask: mask)
                        pending[parts] = PendingPart(mask: mask, first: header.firstPosition, slot: header.slot)
                        parts += 1
                    }
                    continue
                }
            }
            shapes[others] = shape
            others += 1
        }
        for shape in shapes[0..<others] {
            if let slot = store.containingSlot(shape: shape, longitude: x, latitude: y) { hit(slot) }
        }
        let query = parts > 0 ? FixedPointQuery(x: x, y: y) : nil
        for part in pending[0..<parts] where store.maskedPartContains(first: part.first, mask: part.mask, x: x, y: y, query: query) {
            hit(part.slot)
        }
    }

    /// Tests the undecided candidates beyond the first `skipped`, one by one: only piles of more than
    /// `stagedCandidates` overlapping regions have them.
    @inline(never)
    private func testCandidates(x: Double, y: Double, after skipped: Int, _ body: (RegionHandle) -> Void) {
        var seen = 0
        forEachCandidate(x: x, y: y, inside: { _ in }) { shape in
            seen += 1
            if seen > skipped, let slot = store.containingSlot(shape: shape, longitude: x, latitude: y) {
                body(store.handle(slot: slot))
            }
        }
    }

    /// A small polygon part whose edges are on their way.
    struct PendingPart {
        var mask: UInt64
        var first: StoredPosition
        var slot: RegionSlot
    }
}

extension RegionStore {
    /// Starts loading the record of each shape, a cache line each: a circle or a polygon part's header.
    @inline(__always)
    func prefetchRecords(_ shapes: UnsafeBufferPointer<ShapeReference>) {
        circles.withUnsafeBufferPointer { circles in
            partHeaders.withUnsafeBufferPointer { headers in
                for shape in shapes {
                    if shape.isCircle {
                        prefetch(circles.baseAddress! + shape.circleNumber)
                    } else {
                        prefetch(headers.baseAddress! + shape.partNumber)
                    }
                }
            }
        }
    }
}
