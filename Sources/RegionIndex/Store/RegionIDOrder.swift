#if canImport(Glibc)
import Glibc
#endif

extension RegionStore {
    /// The UTF-8 bytes of a region's id, valid while the store is alive and unchanged.
    public func idBytes(_ handle: RegionHandle) -> UnsafeBufferPointer<UInt8> {
        withIDBytes { UnsafeBufferPointer(rebasing: $0[idRange(checkedSlot(handle))]) }
    }

    /// Sorts handles by their ids' bytes (the order `locate` prints), comparing in place without making strings.
    /// `locate` sorts a few handles for every fix: comparisons read only the two id buffers (through `idRange` each
    /// copied the store, about 100 ns a comparison), and the short lists it usually gets take an insertion sort.
    public func sortByID(_ handles: inout [RegionHandle]) {
        guard handles.count > 1 else { return }
        for handle in handles { _ = checkedSlot(handle) }   // the comparisons below read ids unchecked
        withIDBytesAndEnds { bytes, ends in
            let order = IDOrder(bytes: bytes.baseAddress!, ends: ends.baseAddress!)
            handles.withUnsafeMutableBufferPointer { h in
                guard h.count <= 16 else { return h.sort(by: order.precedes) }
                for i in 1..<h.count {
                    let item = h[i]
                    var j = i
                    while j > 0, order.precedes(item, h[j - 1]) {
                        h[j] = h[j - 1]
                        j -= 1
                    }
                    h[j] = item
                }
            }
        }
    }
}

/// Byte order of two regions' ids, read straight from the store's id table.
struct IDOrder {
    let bytes: UnsafePointer<UInt8>
    let ends: UnsafePointer<UInt32>

    func precedes(_ a: RegionHandle, _ b: RegionHandle) -> Bool {
        precedes(slot: a.slot, b.slot)
    }

    func precedes(slot a: RegionSlot, _ b: RegionSlot) -> Bool {
        let (aStart, aEnd) = range(a), (bStart, bEnd) = range(b)
        let common = min(aEnd - aStart, bEnd - bStart)
        let order = common == 0 ? 0 : memcmp(bytes + aStart, bytes + bStart, common)
        return order != 0 ? order < 0 : aEnd - aStart < bEnd - bStart
    }

    private func range(_ slot: RegionSlot) -> (Int, Int) {
        (slot.index == 0 ? 0 : Int(ends[slot.index - 1]), Int(ends[slot.index]))
    }
}
