#if canImport(Glibc)
import GeoWakeCore
import Glibc
#endif
import FileBytes

/// Reads a whole trace file (or standard input) chunk by chunk, never as one String.
public enum TraceFile {
    static let chunkSize = 1 << 17

    /// Calls `body` for every fix in order and returns what was read. `path` "-" is standard input.
    /// Throws `TraceError` when the file cannot be opened or read or is not a trace, and rethrows `body`'s errors.
    /// `progress` hears the bytes read so far and the file's size (nil for a pipe) after each chunk.
    public static func read(_ path: String, format: TraceFormat? = nil, progress: ((Int, Int?) -> Void)? = nil,
                            _ body: (Fix) throws -> Void) throws -> TraceStatistics {
        let name = path == "-" ? "standard input" : path
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TraceError("cannot open: \(lastError())", file: name) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }

        var reader = TraceReader(format: format)
        // The readers' emit closures cannot throw: the first error from `body` is kept, later fixes
        // are skipped, and the error is rethrown when the chunk is done. (Closure literals, not a
        // closure value, so that the per-fix call is not paid for with reference counting.)
        var failure: (any Error)?
        // A gzip-compressed trace (a rotated log) is inflated on the way, told by its first two bytes.
        var gunzip: Gunzip?
        var started = false
        do {
            try chunks(of: descriptor, progress: progress) { compressedOrPlain in
                if !started {
                    started = true
                    if Gunzip.isGzip(compressedOrPlain) { gunzip = Gunzip() }
                }
                if let gunzip {
                    try gunzip.inflate(compressedOrPlain) { try feed($0, &reader, &failure, body) }
                } else {
                    try feed(compressedOrPlain, &reader, &failure, body)
                }
            }
            do { try gunzip?.finish() } catch { throw TraceError("\(error)") }
            try reader.finish { fix in
                guard failure == nil else { return }
                do { try body(fix) } catch { failure = error }
            }
        } catch var error as TraceError where failure == nil {
            error.file = name
            throw error
        } catch let error as FileReadError where failure == nil {
            throw TraceError(error.reason, file: name)
        }
        if let failure { throw failure }
        return reader.statistics
    }

    /// One chunk to the reader, its fixes to `body` until `body` throws. Not a local function: the fix closure's
    /// access to a local function's captured `failure` was checked at run time, twice a fix.
    private static func feed(_ chunk: UnsafeRawBufferPointer, _ reader: inout TraceReader, _ failure: inout (any Error)?,
                             _ body: (Fix) throws -> Void) throws {
        try reader.consume(chunk) { fix in
            guard failure == nil else { return }
            do { try body(fix) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Hands over the contents in order: a regular file mapped (`MappedFile`), anything else through `read(2)`.
    static func chunks(of descriptor: Int32, progress: ((Int, Int?) -> Void)? = nil,
                       _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        let wasMapped = try MappedFile.withMapping(of: descriptor) { mapped in
            guard let mapped else { return false }
            var offset = 0
            while offset < mapped.count {
                let count = min(chunkSize, mapped.count - offset)
                try chunk(UnsafeRawBufferPointer(rebasing: mapped[offset..<offset + count]))
                offset += count
                progress?(offset, mapped.count)
            }
            return true
        }
        if wasMapped { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw TraceError("cannot read: \(lastError())", location: "byte \(offset)")
            }
            if count == 0 { return }
            try chunk(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += count
            progress?(offset, nil)
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
