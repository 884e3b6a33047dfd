/// The buffers of a point query, lent by a caller that makes one on every fix (the region monitor), so that
/// they are allocated once, not per query: `withUnsafeTemporaryAllocation` takes the stack only up to 1 KB on
/// Linux, and the query's four buffers (38 KB) came from the heap, four allocations per query (8% of the
/// monitor's instructions in `geowake bench replay` at 100k regions). Holds nothing between queries.
public struct PointQueryScratch: Sendable {
    /// One allocation for the four buffers, in words so that each starts aligned.
    private var words: [UInt64] = []

    public init() {}

    /// Whether the buffers are allocated (a caller may drop them while idle).
    public var isAllocated: Bool { !words.isEmpty }

    private static let shapesCount = RegionIndex.stagedCandidates
    private static let pendingCount = RegionIndex.stagedCandidates
    /// Room for `orderedHits` and `stagedCandidates`: the tested hits are merged into it.
    private static let decidedCount = RegionIndex.orderedHits + RegionIndex.stagedCandidates
    private static let testedCount = RegionIndex.stagedCandidates

    private static func words<T>(_ type: T.Type, _ count: Int) -> Int { (MemoryLayout<T>.stride * count + 7) / 8 }

    /// Calls `body` with the query's buffers: staged shapes, pending parts, decided hits, tested hits.
    mutating func withBuffers<R>(_ body: (UnsafeMutableBufferPointer<ShapeReference>, UnsafeMutableBufferPointer<RegionIndex.PendingPart>,
                                          UnsafeMutableBufferPointer<RegionHandle>, UnsafeMutableBufferPointer<RegionHandle>) -> R) -> R {
        let shapesWords = Self.words(ShapeReference.self, Self.shapesCount)
        let pendingWords = Self.words(RegionIndex.PendingPart.self, Self.pendingCount)
        let decidedWords = Self.words(RegionHandle.self, Self.decidedCount)
        if words.isEmpty {
            words = Array(repeating: 0, count: shapesWords + pendingWords + decidedWords + Self.words(RegionHandle.self, Self.testedCount))
        }
        return words.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            var offset = 0
            func take<T>(_ type: T.Type, _ count: Int, words: Int) -> UnsafeMutableBufferPointer<T> {
                defer { offset += 8 * words }
                return UnsafeMutableBufferPointer(start: (base + offset).bindMemory(to: T.self, capacity: count), count: count)
            }
            return body(take(ShapeReference.self, Self.shapesCount, words: shapesWords),
                        take(RegionIndex.PendingPart.self, Self.pendingCount, words: pendingWords),
                        take(RegionHandle.self, Self.decidedCount, words: decidedWords),
                        take(RegionHandle.self, Self.testedCount, words: 0))
        }
    }
}
