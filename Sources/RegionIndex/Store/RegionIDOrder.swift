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
        withIDBytes { bytes in
            let base = bytes.baseAddress!
            handles.sort { a, b in
                let ra = idRange(a.rawValue), rb = idRange(b.rawValue)
                let common = min(ra.count, rb.count)
                let order = common == 0 ? 0 : memcmp(base + ra.lowerBound, base + rb.lowerBound, common)
                return order != 0 ? order < 0 : ra.count < rb.count
            }
        }
    }
}
