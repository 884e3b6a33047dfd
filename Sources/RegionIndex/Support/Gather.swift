import CIntrinsics

/// Element group `indices[k]` of `values` at group k of the result, for groups of `width` elements (4 for
/// boxes), each read started 16 groups early: for indices in an order unrelated to memory (the tree's
/// order over arrays in slot order), a stream of overlapping reads instead of a cache miss per group.
/// Large gathers run in chunks of at least `chunkSize` indices on two cores.
func gather<T>(_ values: [T], at indices: ArraySlice<UInt32>, width: Int = 1, chunkSize: Int = 100_000) -> [T] {
    let lookahead = 16, n = indices.count
    return values.withUnsafeBufferPointer { values in
        indices.withUnsafeBufferPointer { indices in
            [T](unsafeUninitializedCapacity: width * n) { result, count in
                inParallel(chunkRanges(of: 0..<n, atLeast: chunkSize, limit: 2)) { _, range in
                    for k in range {
                        if k + lookahead < range.upperBound { prefetch(values.baseAddress! + width * Int(indices[k + lookahead])) }
                        (result.baseAddress! + width * k).initialize(from: values.baseAddress! + width * Int(indices[k]), count: width)
                    }
                }
                count = width * n
            }
        }
    }
}
