import Dispatch

/// `range` cut into at most `limit` consecutive chunks of at least `size` elements each (a single chunk
/// when it is smaller): the shares of a build step run on every core with `inParallel`.
func chunkRanges(of range: Range<Int>, atLeast size: Int, limit: Int = 8) -> [Range<Int>] {
    let count = max(1, min(limit, range.count / size)), first = range.lowerBound, n = range.count
    return (0..<count).map { k in first + n * k / count..<first + n * (k + 1) / count }
}

/// Calls `body` with each chunk's number and range, the chunks on every core at once, and returns when
/// all are done. The chunks write through buffers that `body` captures, each to a part of its own: Swift
/// cannot check that, so this is the one place that vouches for it (`nonisolated(unsafe)`), and the
/// build steps pass plain closures.
func inParallel(_ chunks: [Range<Int>], _ body: (_ chunk: Int, _ range: Range<Int>) -> Void) {
    withoutActuallyEscaping(body) { body in
        nonisolated(unsafe) let body = body
        DispatchQueue.concurrentPerform(iterations: chunks.count) { k in body(k, chunks[k]) }
    }
}
