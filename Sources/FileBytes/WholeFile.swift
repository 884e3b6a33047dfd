#if canImport(Glibc)
import Glibc
#endif

/// The whole contents of a file or of standard input ("-") in memory at once, for readers that need
/// random access (GeoJSON): a regular file is mapped read-only so the reader walks the page cache
/// without a copy; standard input and gzip-compressed files are read (and inflated) into one buffer.
public enum WholeFile {
    public static func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        if path == "-" { return try withCopy(of: STDIN_FILENO, body) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileReadError(systemError()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileReadError(systemError()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileReadError("not a regular file") }
        guard info.st_size > 0 else { throw FileReadError("the file is empty") }
        return try MappedFile.withMapping(of: fd) { mapped in
            guard let bytes = mapped else { throw FileReadError(systemError()) }
            guard Gunzip.isGzip(bytes) else { return try body(bytes) }
            return try inflated(bytes, body)
        }
    }

    private static func withCopy<R>(of fd: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 17)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileReadError("cannot read: \(systemError())")
            }
            if n == 0 { break }
            contents.append(contentsOf: chunk[0..<n])
        }
        guard !contents.isEmpty else { throw FileReadError("the input is empty") }
        return try contents.withUnsafeBytes { bytes in
            Gunzip.isGzip(bytes) ? try inflated(bytes, body) : try body(bytes)
        }
    }

    private static func inflated<R>(_ compressed: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        var contents: [UInt8] = []
        contents.reserveCapacity(compressed.count * 4)
        let gunzip = Gunzip()
        try gunzip.inflate(compressed) { contents.append(contentsOf: $0) }
        try gunzip.finish()
        guard !contents.isEmpty else { throw FileReadError("the file is empty once decompressed") }
        return try contents.withUnsafeBytes(body)
    }

    static func systemError() -> String { String(cString: strerror(errno)) }
}
