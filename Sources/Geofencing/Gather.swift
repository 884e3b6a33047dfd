import CPrefetch

/// `values[i]` for each i of `indices`, each read started 16 elements early: for indices in an order
/// unrelated to memory (the tree's order over arrays in slot order), a stream of overlapping reads
/// instead of a cache miss per element.
func gather(_ values: [UInt32], at indices: ArraySlice<UInt32>) -> [UInt32] {
    let lookahead = 16
    return values.withUnsafeBufferPointer { values in
        indices.withUnsafeBufferPointer { indices in
            [UInt32](unsafeUninitializedCapacity: indices.count) { result, count in
                for k in 0..<indices.count {
                    if k + lookahead < indices.count { prefetch(values.baseAddress! + Int(indices[k + lookahead])) }
                    result[k] = values[Int(indices[k])]
                }
                count = indices.count
            }
        }
    }
}
