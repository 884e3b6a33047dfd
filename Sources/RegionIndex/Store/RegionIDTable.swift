#if canImport(Glibc)
import Glibc
#endif

/// Id → slot lookup as an open-addressing hash table of 32-bit slots over the store's id bytes:
/// about 8 bytes per region, where a `[String: UInt32]` costs five times that.
struct RegionIDTable {
    /// Slot + 1 per bucket; 0 marks an empty bucket. Removed slots stay, so probing chains never break.
    private var buckets: [UInt32] = []
    private(set) var count = 0

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a, then a final mix for the low bits
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        h ^= h >> 29
        h = h &* 0xbf58_476d_1ce4_e5b9
        return h ^ (h >> 32)
    }

    /// The live slot whose id equals `id`, using `idOf` to read a slot's id bytes (nil for a removed slot).
    func find(_ id: UnsafeBufferPointer<UInt8>, idOf: (RegionSlot) -> UnsafeBufferPointer<UInt8>?) -> RegionSlot? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var i = Int(truncatingIfNeeded: Self.hash(id)) & mask
        while true {
            let entry = buckets[i]
            if entry == 0 { return nil }
            if let other = idOf(RegionSlot(entry - 1)), other.count == id.count && (id.isEmpty || memcmp(other.baseAddress!, id.baseAddress!, id.count) == 0) {
                return RegionSlot(entry - 1)
            }
            i = (i + 1) & mask
        }
    }

    /// Adds `slot` under `hash`; the caller has checked that its id is new. `hashOf` recomputes
    /// the hashes of the slots already in the table when it grows.
    mutating func insert(slot: RegionSlot, hash: UInt64, hashOf: (RegionSlot) -> UInt64) {
        if (count + 1) * 2 > buckets.count { grow(hashOf) }
        place(slot: slot, hash: hash)
        count += 1
    }

    private mutating func place(slot: RegionSlot, hash: UInt64) {
        let mask = buckets.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while buckets[i] != 0 { i = (i + 1) & mask }
        buckets[i] = slot.rawValue + 1
    }

    private mutating func grow(_ hashOf: (RegionSlot) -> UInt64) {
        let old = buckets
        buckets = Array(repeating: 0, count: max(16, old.count * 2))
        for entry in old where entry != 0 { place(slot: RegionSlot(entry - 1), hash: hashOf(RegionSlot(entry - 1))) }
    }

    /// Empties the table, keeping room for `capacity` entries.
    mutating func reset(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        buckets = Array(repeating: 0, count: size)
        count = 0
    }

    var memoryFootprint: Int { buckets.capacity * 4 }
}
