import CIntrinsics

/// Element group `indices[k]` of `values` at group k of the result, for groups of `width` elements (4 for
/// boxes), each read started 16 groups early: for indices in an order unrelated to memory (the tree's
/// order over arrays in slot order), a stream of overlapping reads instead of a cache miss per group.
func gather<T>(_ values: [T], at indices: ArraySlice<UInt32>, width: Int = 1) -> [T] {
    let lookahead = 16
    return values.withUnsafeBufferPointer { values in
        indices.withUnsafeBufferPointer { indices in
            [T](unsafeUninitializedCapacity: width * indices.count) { result, count in
                for k in 0..<indices.count {
                    if k + lookahead < indices.count { prefetch(values.baseAddress! + width * Int(indices[k + lookahead])) }
                    (result.baseAddress! + width * k).initialize(from: values.baseAddress! + width * Int(indices[k]), count: width)
                }
                count = width * indices.count
            }
        }
    }
}
