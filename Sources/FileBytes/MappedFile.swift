#if canImport(Glibc)
import Glibc
#endif

/// A regular file's bytes mapped read-only, for sequential reading: no copy through the kernel's read
/// path (that copy was a tenth of `geowake fixes`' time). The one place the package maps files.
public enum MappedFile {
    /// Calls `body` with the mapped contents of `descriptor`, or with nil when it is not a regular,
    /// non-empty file (a pipe, a terminal, a device) or cannot be mapped: the caller then reads it.
    public static func withMapping<R>(of descriptor: Int32, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
              let mapped = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            return try body(nil)
        }
        let size = Int(info.st_size)
        defer { munmap(mapped, size) }
        _ = madvise(mapped, size, MADV_SEQUENTIAL)
        return try body(UnsafeRawBufferPointer(start: mapped, count: size))
    }
}
