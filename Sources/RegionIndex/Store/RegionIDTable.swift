#if canImport(Glibc)
import Glibc
#endif

/// Id → slot lookup as an open-addressing hash table over the store's id bytes: per bucket the slot and the low 32
/// bits of its id's hash, 16 to 32 bytes per region (a `[String: UInt32]` costs more, and a heap string each). A probe
/// reads an id's bytes only when the hash bits agree, and growing places the buckets again without reading any id
/// (rehashing read every id, at random, on each doubling: a sixth of a restart's validating thread).
struct RegionIDTable {
    /// Slot + 1 in the high 32 bits, 0 for an empty bucket; the hash's low 32 bits below. Removed slots stay, so
    /// probing chains never break.
    private var buckets: [UInt64] = []
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
        return probe(id, UInt32(truncatingIfNeeded: Self.hash(id)), idOf).found
    }

    /// Adds `slot` under `id` unless a live slot has that id already; returns that slot, nil when `slot` went in.
    mutating func insert(slot: RegionSlot, id: UnsafeBufferPointer<UInt8>, idOf: (RegionSlot) -> UnsafeBufferPointer<UInt8>?) -> RegionSlot? {
        if (count + 1) * 2 > buckets.count { grow() }
        let hash = UInt32(truncatingIfNeeded: Self.hash(id))
        let (found, empty) = probe(id, hash, idOf)
        if let found { return found }
        buckets[empty] = UInt64(slot.rawValue + 1) << 32 | UInt64(hash)
        count += 1
        return nil
    }

    /// The live slot with `id`, else the empty bucket that ends its chain.
    private func probe(_ id: UnsafeBufferPointer<UInt8>, _ hash: UInt32, _ idOf: (RegionSlot) -> UnsafeBufferPointer<UInt8>?)
        -> (found: RegionSlot?, empty: Int) {
        buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count - 1
            var i = Int(hash) & mask
            while true {
                let entry = buckets[i]
                if entry == 0 { return (nil, i) }
                if UInt32(truncatingIfNeeded: entry) == hash, let other = idOf(RegionSlot(UInt32(entry >> 32) - 1)),
                   other.count == id.count && (id.isEmpty || memcmp(other.baseAddress!, id.baseAddress!, id.count) == 0) {
                    return (RegionSlot(UInt32(entry >> 32) - 1), i)
                }
                i = (i + 1) & mask
            }
        }
    }

    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: 0, count: max(16, old.count * 2))
        let mask = buckets.count - 1
        buckets.withUnsafeMutableBufferPointer { buckets in
            for entry in old where entry != 0 {
                var i = Int(UInt32(truncatingIfNeeded: entry)) & mask
                while buckets[i] != 0 { i = (i + 1) & mask }
                buckets[i] = entry
            }
        }
    }

    var memoryFootprint: Int { buckets.capacity * 8 }
}
