#if canImport(Glibc)
import Glibc
#endif

/// Reads a beacon trace, JSON lines or btsnoop, told apart by the btsnoop header, from a file or standard input.
public enum BeaconTraceFile {
    /// Calls `body` for every advertising report in order. Throws `TraceError` when the source cannot be read or
    /// is a damaged btsnoop header; rethrows `body`'s errors.
    public static func read(_ path: String, _ body: (AdvertisingReport) throws -> Void) throws -> AdvertisingStatistics {
        let name = path == "-" ? "standard input" : path
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TraceError("cannot open: \(String(cString: strerror(errno)))", file: name)
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var failure: (any Error)?
        var lines: BeaconTraceReader?
        var snoop: [UInt8]?
        do {
            try TraceFile.chunks(of: descriptor) { chunk in
                if lines == nil && snoop == nil {
                    let head = Array(chunk.prefix(8))
                    if head == Array(BtsnoopReader.magic.prefix(head.count)) { snoop = [] } else { lines = BeaconTraceReader() }
                }
                if snoop != nil {
                    snoop!.append(contentsOf: chunk)
                } else {
                    lines!.consume(chunk) { report in
                        guard failure == nil else { return }
                        do { try body(report) } catch { failure = error }
                    }
                    if let failure { throw failure }
                }
            }
            if var reader = lines {
                reader.finish { report in
                    guard failure == nil else { return }
                    do { try body(report) } catch { failure = error }
                }
                if let failure { throw failure }
                return reader.statistics
            }
            var statistics = AdvertisingStatistics()
            guard let snoop else { return statistics }
            try snoop.withUnsafeBufferPointer { bytes throws(TraceError) in
                try BtsnoopReader.read(bytes, statistics: &statistics) { report in
                    guard failure == nil else { return }
                    do { try body(report) } catch { failure = error }
                }
            }
            if let failure { throw failure }
            return statistics
        } catch var error as TraceError where failure == nil {
            error.file = name
            throw error
        }
    }
}
