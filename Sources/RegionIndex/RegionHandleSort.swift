extension RegionHandle {
    /// Sorts `handles` into `<`'s order, as `sort()` would.
    ///
    /// The region monitor sorts a fix's hits on every fix. The index now reports them in handle order, mostly, and
    /// a neighbourhood's come in that order too: then they cost one look each. Other `RegionQuerying`s need not.
    /// The standard library's sort spent a fifth of `geowake bench replay`'s profile on them at 100k regions (about
    /// 150 hits a fix): a buffer allocated each time and n log n comparisons that mispredict half the time.
    /// Hits share their store and the high bits of their slots, so a radix sort on just the bits in which
    /// they differ takes two or three passes without a branch on the data. Few handles are sorted by
    /// insertion, and handles already in order (a neighbourhood's hits are) cost one look each.
    public static func sort(_ handles: inout [RegionHandle]) {
        handles.withUnsafeMutableBufferPointer { sort($0) }
    }

    static func sort(_ h: UnsafeMutableBufferPointer<RegionHandle>) {
        let n = h.count
        guard n > 1 else { return }
        // Hits come in order nearly always: that look alone, apart from the bits' span, halved the cost.
        var i = 1
        while i < n, h[i - 1].bits <= h[i].bits { i += 1 }
        guard i < n else { return }
        var differing: UInt64 = 0
        let first = h[0].bits
        for x in h { differing |= x.bits ^ first }
        if n <= insertionLimit {
            insertionSort(h)
        } else {
            radixSort(h, differing: differing)
        }
    }

    /// Below this many handles, the counts of each radix pass cost more than insertion's comparisons.
    static let insertionLimit = 32

    private static func insertionSort(_ h: UnsafeMutableBufferPointer<RegionHandle>) {
        for i in 1..<h.count {
            let x = h[i]
            var j = i
            while j > 0, x.bits < h[j - 1].bits {
                h[j] = h[j - 1]
                j -= 1
            }
            h[j] = x
        }
    }

    /// Least significant digit first, over the span of bits in which the handles differ (a fix's hits share
    /// their store and the high bits of their slots: 17 bits at 100k regions). The digit width is chosen for
    /// the count: each pass costs its counts twice (cleared, summed) and the handles twice (counted, moved),
    /// so 200 hits over 17 bits take three passes of 6 bits (64 counts) rather than three of 8 (256).
    private static func radixSort(_ h: UnsafeMutableBufferPointer<RegionHandle>, differing: UInt64) {
        let n = h.count
        let low = differing.trailingZeroBitCount
        let span = 64 - differing.leadingZeroBitCount - low
        var passes = 1, best = Int.max
        for p in 1...8 where (span + p - 1) / p <= 11 {
            let cost = p * (2 << ((span + p - 1) / p) + 2 * n)
            if cost < best { best = cost; passes = p }
        }
        let width = (span + passes - 1) / passes
        let buckets = 1 << width
        let mask = UInt64(buckets - 1)
        withUnsafeTemporaryAllocation(of: RegionHandle.self, capacity: n) { scratch in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: buckets) { counts in
                var source = h, target = scratch
                for pass in 0..<passes {
                    let shift = UInt64(low + pass * width)
                    counts.initialize(repeating: 0)
                    for x in source { counts[Int(truncatingIfNeeded: (x.bits >> shift) & mask)] += 1 }
                    var total = 0
                    for b in 0..<buckets {
                        let c = counts[b]
                        counts[b] = total
                        total += c
                    }
                    for x in source {
                        let b = Int(truncatingIfNeeded: (x.bits >> shift) & mask)
                        target.baseAddress!.advanced(by: counts[b]).initialize(to: x)
                        counts[b] += 1
                    }
                    swap(&source, &target)
                }
                if source.baseAddress != h.baseAddress {
                    h.baseAddress!.update(from: source.baseAddress!, count: n)
                }
            }
        }
    }
}
