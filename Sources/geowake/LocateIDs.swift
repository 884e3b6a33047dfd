import JSONLines
import RegionIndex

/// Every region's id quoted for JSON, in id order, and each slot's rank in that order: `locate` orders a
/// fix's regions by comparing ranks and copies their quoted ids, instead of comparing and escaping id bytes
/// for every fix.
struct LocateIDs {
    /// Per slot; removed slots (never found by a query) have none.
    private let rankOfSlot: [UInt32]
    private let quoted: QuotedStrings

    init(_ store: RegionStore) {
        var ranks = [UInt32](repeating: .max, count: store.slotCount)
        var quoted = QuotedStrings()
        store.forEachIDInOrder { region, id in
            ranks[Int(region.slot.rawValue)] = UInt32(quoted.count)
            quoted.append(utf8: id)
        }
        rankOfSlot = ranks
        self.quoted = quoted
    }

    /// The tables for the per-fix loop: ranks by slot, and the quoted ids by rank.
    func withTables<R>(_ body: (UnsafeBufferPointer<UInt32>, QuotedStrings.View) throws -> R) rethrows -> R {
        try rankOfSlot.withUnsafeBufferPointer { ranks in try quoted.withView { try body(ranks, $0) } }
    }
}

/// The ranks of one fix's regions, refilled for every fix (`Array.removeAll` took its generic path each time).
struct RankList {
    private var storage = [UInt32](repeating: 0, count: 64)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func removeAll() { count = 0 }

    mutating func append(_ rank: UInt32) {
        if count == storage.count { storage += repeatElement(0, count: count) }
        storage[count] = rank
        count += 1
    }

    /// Ascending: an insertion sort for the handful of regions a fix is usually in.
    mutating func sort() {
        guard count > 1 else { return }
        guard count <= 16 else { return storage[0..<count].sort() }
        storage.withUnsafeMutableBufferPointer { r in
            for i in 1..<count {
                let item = r[i]
                var j = i
                while j > 0, item < r[j - 1] {
                    r[j] = r[j - 1]
                    j -= 1
                }
                r[j] = item
            }
        }
    }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }
}
