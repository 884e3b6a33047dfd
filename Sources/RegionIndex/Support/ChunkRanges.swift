/// `range` cut into at most `limit` consecutive chunks of at least `size` elements each (a single chunk
/// when it is smaller): the shares of a build step run on every core with `concurrentPerform`.
func chunkRanges(of range: Range<Int>, atLeast size: Int, limit: Int = 8) -> [Range<Int>] {
    let count = max(1, min(limit, range.count / size)), first = range.lowerBound, n = range.count
    return (0..<count).map { k in first + n * k / count..<first + n * (k + 1) / count }
}
