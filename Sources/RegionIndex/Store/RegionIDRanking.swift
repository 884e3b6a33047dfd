extension RegionStore {
    /// Calls `body` with every live region's handle and id bytes, in the ids' byte order (the order `locate`
    /// prints them in): a caller ranks the ids once, then orders a fix's regions by comparing ranks.
    /// Slots already in id order (a file numbered in order, the usual case) are checked and not sorted.
    public func forEachIDInOrder(_ body: (_ region: RegionHandle, _ id: UnsafeBufferPointer<UInt8>) -> Void) {
        let live = kinds.indices.filter { kinds[$0] != .removed }.map { RegionSlot($0) }
        guard !live.isEmpty else { return }
        withIDBytesAndEnds { bytes, ends in
            // An empty id table has no base address; nothing is then read through it.
            let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
            let order = IDOrder(bytes: base, ends: ends.baseAddress!)
            var sorted = live
            if !zip(live, live.dropFirst()).allSatisfy({ order.precedes(slot: $0, $1) }) {
                // The first eight bytes as a big-endian number decide most comparisons without a memcmp.
                var keyed = live.map { slot in (key: Self.prefixKey(base, ends, slot), slot: slot) }
                keyed.sort { $0.key != $1.key ? $0.key < $1.key : order.precedes(slot: $0.slot, $1.slot) }
                sorted = keyed.map(\.slot)
            }
            for slot in sorted {
                let start = slot.index == 0 ? 0 : Int(ends[slot.index - 1])
                body(handle(slot: slot), UnsafeBufferPointer(start: base + start, count: Int(ends[slot.index]) - start))
            }
        }
    }

    /// Up to the first eight bytes of a slot's id, first byte highest, zero-padded: ordered as the ids are,
    /// except that ids sharing these bytes need their whole comparison.
    private static func prefixKey(_ bytes: UnsafePointer<UInt8>, _ ends: UnsafeBufferPointer<UInt32>, _ slot: RegionSlot) -> UInt64 {
        let start = slot.index == 0 ? 0 : Int(ends[slot.index - 1])
        let count = min(Int(ends[slot.index]) - start, 8)
        var key: UInt64 = 0
        for i in 0..<8 { key = key << 8 | (i < count ? UInt64(bytes[start + i]) : 0) }
        return key
    }
}
