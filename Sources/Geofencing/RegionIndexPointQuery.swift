import CPrefetch

extension RegionIndex {
    /// Candidates staged per point; any beyond (only in piles of overlapping regions) are tested at once.
    static let stagedCandidates = 64
    /// Points whose queries run side by side.
    static let batchSize = 8

    /// Calls `body` once for every region containing the point, in no particular order.
    public func forEachRegion(containing point: Coordinate, _ body: (RegionHandle) -> Void) {
        withUnsafePointer(to: point) { point in
            forEachRegion(containingEach: UnsafeBufferPointer(start: point, count: 1)) { _, handle in body(handle) }
        }
    }

    /// Calls `body` with the position in `points` and the handle of every region containing each point:
    /// the hits of one point are reported before those of the next, in no particular order among themselves.
    ///
    /// A query is a chain of memory reads, each needing the one before: the grid cell's bounds, its entries,
    /// the candidates' records (circles, polygon part headers with their band masks), the edges of the
    /// point's band of each small polygon part. At a million regions nearly every one misses the cache. Each
    /// stage starts all its reads before it uses any, for a batch of points at once, so that the batch
    /// waits for about one miss per stage instead of every query waiting for one per read.
    public func forEachRegion(containingEach points: UnsafeBufferPointer<Coordinate>,
                              _ body: (Int, RegionHandle) -> Void) {
        let staged = Self.stagedCandidates
        // Sized for the batch, so that a single point's buffers fit on the stack.
        let batchSize = min(Self.batchSize, points.count)
        withUnsafeTemporaryAllocation(of: PointQuery.self, capacity: batchSize) { queries in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: batchSize * staged) { shapes in
                withUnsafeTemporaryAllocation(of: PendingPart.self, capacity: batchSize * staged) { pending in
                    var first = 0
                    while first < points.count {
                        let count = min(batchSize, points.count - first)
                        for k in 0..<count {
                            queries[k] = PointQuery(points[first + k], grid)
                            if let probe = queries[k].probe { grid.prefetchBounds(probe) }
                        }
                        for k in 0..<count {
                            guard let probe = queries[k].probe else { continue }
                            queries[k].entries = grid.entries(probe)
                            grid.prefetchEntries(queries[k].entries)
                        }
                        for k in 0..<count {
                            let base = k * staged
                            queries[k].candidates = stageCandidates(queries[k], into: shapes, at: base)
                            queries[k].shapes = min(queries[k].candidates, staged)
                            store.prefetchRecords(UnsafeBufferPointer(start: shapes.baseAddress! + base, count: queries[k].shapes))
                        }
                        for k in 0..<count {
                            let base = k * staged
                            (queries[k].shapes, queries[k].parts) = stageEdges(queries[k], shapes: shapes, pending: pending, at: base)
                        }
                        for k in 0..<count {
                            let base = k * staged, query = queries[k]
                            for i in base..<base + query.shapes {
                                if let slot = store.containingSlot(shape: shapes[i], longitude: query.x, latitude: query.y) {
                                    body(first + k, RegionHandle(rawValue: slot))
                                }
                            }
                            let fixedPoint = query.parts > 0 ? FixedPointQuery(x: query.x, y: query.y) : nil
                            for i in base..<base + query.parts {
                                let part = pending[i]
                                guard store.maskedPartContains(base: Int(part.base), mask: part.mask, x: query.x, y: query.y,
                                                               query: fixedPoint) else { continue }
                                body(first + k, RegionHandle(rawValue: part.slot))
                            }
                            if query.candidates > staged { testUnstagedCandidates(query) { body(first + k, $0) } }
                        }
                        first += count
                    }
                }
            }
        }
    }

    /// Puts the first `stagedCandidates` of the query's candidates (from the grid and from the regions added
    /// since the last build) in `shapes[base...]` and returns how many there are in all.
    @inline(__always)
    private func stageCandidates(_ query: PointQuery, into shapes: UnsafeMutableBufferPointer<UInt32>, at base: Int) -> Int {
        var count = 0
        forEachCandidate(query) { shape in
            if count < Self.stagedCandidates { shapes[base + count] = shape }
            count += 1
        }
        return count
    }

    /// Tests the candidates that did not fit the stage, in a pile of overlapping regions: a second scan is
    /// cheaper than a stage large enough for every pile.
    private func testUnstagedCandidates(_ query: PointQuery, _ hit: (RegionHandle) -> Void) {
        var ordinal = 0
        forEachCandidate(query) { shape in
            defer { ordinal += 1 }
            guard ordinal >= Self.stagedCandidates,
                  let slot = store.containingSlot(shape: shape, longitude: query.x, latitude: query.y) else { return }
            hit(RegionHandle(rawValue: slot))
        }
    }

    @inline(__always)
    private func forEachCandidate(_ query: PointQuery, _ body: (UInt32) -> Void) {
        if let probe = query.probe { grid.forEach(probe, in: query.entries, body) }
        if query.isValid { forEachAddedCandidate(minX: query.x, minY: query.y, maxX: query.x, maxY: query.y, body) }
    }

    /// Moves the query's small polygon parts from `shapes` to `pending` with the edge mask of the point's
    /// band, starting to load those edges (parts whose band holds none are dropped: they cannot contain
    /// the point); returns the numbers of shapes and parts left.
    @inline(__always)
    private func stageEdges(_ query: PointQuery, shapes: UnsafeMutableBufferPointer<UInt32>,
                            pending: UnsafeMutableBufferPointer<PendingPart>, at base: Int) -> (Int, Int) {
        var parts = 0, others = 0
        for k in base..<base + query.shapes {
            let shape = shapes[k]
            if shape & 1 == 1 {
                let header = store.partHeaders[Int(shape >> 1)]
                if header.isMasked {
                    let mask = header.mask(y: query.y)
                    if mask != 0 {
                        store.prefetchEdges(base: Int(header.firstPosition), mask: mask)
                        pending[base + parts] = PendingPart(mask: mask, base: header.firstPosition, slot: header.slot)
                        parts += 1
                    }
                    continue
                }
            }
            shapes[base + others] = shape
            others += 1
        }
        return (others, parts)
    }

    /// One point of a batch and how far its query has come.
    struct PointQuery {
        var x = 0.0, y = 0.0
        var isValid = false
        var probe: CellGrid.Probe?
        var entries = 0..<0
        var candidates = 0
        /// Staged shapes, then (after `stageEdges`) those not pending as small polygon parts.
        var shapes = 0
        var parts = 0

        init(_ point: Coordinate, _ grid: CellGrid) {
            guard let (x, y) = RegionIndex.normalized(point) else { return }
            (self.x, self.y, isValid) = (x, y, true)
            probe = grid.probe(x: x, y: y)
        }
    }

    /// A small polygon part whose edges are on their way.
    struct PendingPart {
        var mask: UInt64
        var base: UInt32
        var slot: UInt32
    }
}

extension RegionStore {
    /// Starts loading the record of each shape, a cache line each: a circle or a polygon part's header.
    @inline(__always)
    func prefetchRecords(_ shapes: UnsafeBufferPointer<UInt32>) {
        circles.withUnsafeBufferPointer { circles in
            partHeaders.withUnsafeBufferPointer { headers in
                for shape in shapes {
                    let index = Int(shape >> 1)
                    if shape & 1 == 0 {
                        prefetch(circles.baseAddress! + index)
                    } else {
                        prefetch(headers.baseAddress! + index)
                    }
                }
            }
        }
    }
}
