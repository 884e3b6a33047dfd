#if canImport(Glibc)
import Glibc
#endif

extension RegionStore {
    /// The UTF-8 bytes of a region's id, valid while the store is alive and unchanged.
    public func idBytes(_ handle: RegionHandle) -> UnsafeBufferPointer<UInt8> {
        withIDBytes { UnsafeBufferPointer(rebasing: $0[idRange(handle.rawValue)]) }
    }

    /// Sorts handles by their ids' bytes (the order `locate` prints), comparing in place without making strings.
    public func sortByID(_ handles: inout [RegionHandle]) {
        guard handles.count > 1 else { return }
        // The comparison reads only the two buffers: through `idRange` it copied the whole store per call,
        // which was a third of `locate`'s time.
        withIDBytesAndEnds { bytes, ends in
            let base = bytes.baseAddress!
            func range(_ slot: UInt32) -> Range<Int> {
                (slot == 0 ? 0 : Int(ends[Int(slot) - 1]))..<Int(ends[Int(slot)])
            }
            handles.sort { a, b in
                let ra = range(a.rawValue), rb = range(b.rawValue)
                let common = min(ra.count, rb.count)
                let order = common == 0 ? 0 : memcmp(base + ra.lowerBound, base + rb.lowerBound, common)
                return order != 0 ? order < 0 : ra.count < rb.count
            }
        }
    }
}
