/// The slots of the regions a query found for one fix, written over the previous fix's: `sameAsPrevious` tells
/// whether the two lists are equal, so `locate` can repeat the last line's regions without ordering and copying
/// the ids again (94% of fixes at 1M regions, 1M fixes: a vehicle's fixes a second apart are in the same regions).
struct RegionSlots {
    private var storage = [UInt32](repeating: 0, count: 64)
    private(set) var count = 0
    /// The previous fix's count, or -1 for the first fix.
    private var previousCount = -1
    private var isFirst = true
    private var changed = false

    /// Starts the next fix's list.
    mutating func removeAll() {
        previousCount = isFirst ? -1 : count
        isFirst = false
        count = 0
        changed = false
    }

    @inline(__always) mutating func append(_ slot: UInt32) {
        if count == storage.count { grow() }
        // The previous fix's slot at this position is still there: compared before it is overwritten.
        changed = changed || storage[count] != slot
        storage[count] = slot
        count += 1
    }

    @inline(never) private mutating func grow() {
        storage += repeatElement(0, count: count)
    }

    /// True when this fix's slots are the previous fix's, in the same order.
    var sameAsPrevious: Bool { !changed && count == previousCount }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }
}
