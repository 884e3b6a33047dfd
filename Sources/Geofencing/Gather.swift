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

/// The same for boxes of 4 doubles: box i of the result is box `indices[i]` of `boxes`.
func gatherBoxes(_ boxes: [Double], at indices: ArraySlice<UInt32>) -> [Double] {
    let lookahead = 16
    return boxes.withUnsafeBufferPointer { boxes in
        indices.withUnsafeBufferPointer { indices in
            [Double](unsafeUninitializedCapacity: 4 * indices.count) { result, count in
                for k in 0..<indices.count {
                    if k + lookahead < indices.count { prefetch(boxes.baseAddress! + 4 * Int(indices[k + lookahead])) }
                    for j in 0..<4 { result[4 * k + j] = boxes[4 * Int(indices[k]) + j] }
                }
                count = 4 * indices.count
            }
        }
    }
}
