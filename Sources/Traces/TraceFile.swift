#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole trace file (or standard input) in large `read(2)` chunks.
public enum TraceFile {
    static let chunkSize = 1 << 20

    /// Calls `body` for every fix in order and returns what was read. `path` "-" is standard input.
    /// Throws `TraceError` when the file cannot be opened or read or is not a trace, and rethrows `body`'s errors.
    public static func read(_ path: String, format: TraceFormat? = nil, _ body: (Fix) throws -> Void) throws -> TraceStatistics {
        let name = path == "-" ? "standard input" : path
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TraceError("cannot open: \(lastError())", file: name) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var reader = TraceReader(format: format)
        var fixes: [Fix] = []
        var offset = 0
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw TraceError("cannot read: \(lastError())", file: name, location: "byte \(offset)")
            }
            if count == 0 { break }
            do {
                try reader.consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { fixes.append($0) }
            } catch var error as TraceError {
                error.file = name
                throw error
            }
            offset += count
            for fix in fixes { try body(fix) }
            fixes.removeAll(keepingCapacity: true)
        }
        do {
            try reader.finish { fixes.append($0) }
        } catch var error as TraceError {
            error.file = name
            throw error
        }
        for fix in fixes { try body(fix) }
        return reader.statistics
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
