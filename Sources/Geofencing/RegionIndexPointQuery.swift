import CPrefetch

extension RegionIndex {
    /// Candidates staged per point query; any beyond (only in piles of overlapping regions) are tested at once.
    static let stagedCandidates = 64

    /// In stages, each starting the memory reads the next one needs before it uses any: the grid's
    /// candidates; their records (circles, polygon part headers); the polygons' band masks; the edges in
    /// them. At a million regions nearly every read of a stage misses the cache, and this way a query
    /// waits for about one miss per stage instead of one per read.
    public func forEachRegion(containing point: Coordinate, _ body: (RegionHandle) -> Void) {
        guard let (x, y) = Self.normalized(point) else { return }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.stagedCandidates) { shapes in
            withUnsafeTemporaryAllocation(of: PendingPart.self, capacity: Self.stagedCandidates) { pending in
                var count = 0
                forEachCandidate(x: x, y: y) { shape in
                    if count < Self.stagedCandidates {
                        shapes[count] = shape
                        count += 1
                    } else if let slot = store.containingSlot(shape: shape, longitude: x, latitude: y) {
                        body(RegionHandle(rawValue: slot))
                    }
                }
                store.prefetchRecords(UnsafeBufferPointer(rebasing: shapes[0..<count]))
                var parts = 0
                for shape in shapes[0..<count] {
                    if shape & 1 == 1 {
                        let header = store.partHeaders[Int(shape >> 1)]
                        if header.isMasked {
                            pending[parts] = PendingPart(mask: UInt64(store.bandMaskIndex(header, y: y)),
                                                         base: header.firstPosition, slot: header.slot)
                            store.prefetchBandMask(Int(pending[parts].mask))
                            parts += 1
                            continue
                        }
                    }
                    if let slot = store.containingSlot(shape: shape, longitude: x, latitude: y) { body(RegionHandle(rawValue: slot)) }
                }
                for k in 0..<parts {
                    pending[k].mask = store.bandMasks[Int(pending[k].mask)]
                    store.prefetchEdges(base: Int(pending[k].base), mask: pending[k].mask)
                }
                for part in pending[0..<parts] where store.maskedPartContains(base: Int(part.base), mask: part.mask, x: x, y: y) {
                    body(RegionHandle(rawValue: part.slot))
                }
            }
        }
    }

    /// A small polygon part between stages: first the index of its band mask, then the mask.
    struct PendingPart {
        var mask: UInt64
        var base: UInt32
        var slot: UInt32
    }
}

extension RegionStore {
    /// Starts loading the record of each shape: a circle, or a polygon part's header (either may straddle
    /// two cache lines).
    @inline(__always)
    func prefetchRecords(_ shapes: UnsafeBufferPointer<UInt32>) {
        circles.withUnsafeBufferPointer { circles in
            partHeaders.withUnsafeBufferPointer { headers in
                for shape in shapes {
                    let record = shape & 1 == 0 ? UnsafeRawPointer(circles.baseAddress! + Int(shape >> 1))
                        : UnsafeRawPointer(headers.baseAddress! + Int(shape >> 1))
                    prefetch(record)
                    prefetch(record + 47)
                }
            }
        }
    }

    /// Where the band mask of a small part's band holding latitude y is in `bandMasks`.
    @inline(__always)
    func bandMaskIndex(_ header: PartHeader, y: Double) -> Int {
        Int(header.first) + Self.band(y, header.minY, header.scale, Self.maskBands)
    }

    @inline(__always)
    func prefetchBandMask(_ index: Int) {
        bandMasks.withUnsafeBufferPointer { prefetch($0.baseAddress! + index) }
    }

    /// Starts loading both ends of the edges in `mask`, numbered from position `base`.
    @inline(__always)
    func prefetchEdges(base: Int, mask: UInt64) {
        coordinates.withUnsafeBufferPointer { xy in
            var mask = mask
            while mask != 0 {
                let edge = xy.baseAddress! + 2 * (base + mask.trailingZeroBitCount)
                mask &= mask - 1
                prefetch(edge)
                prefetch(edge + 3)
            }
        }
    }
}
