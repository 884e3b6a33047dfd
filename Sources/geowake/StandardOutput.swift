#if canImport(Glibc)
import Glibc
#endif
import GeoWakeCore
import JSONLines

/// Writes what a `JSONLineWriter` collected to a file descriptor in large blocks.
struct StandardOutput {
    var writer = JSONLineWriter(reservingCapacity: 1 << 17)
    let descriptor: Int32
    let flushThreshold: Int

    init(descriptor: Int32 = STDOUT_FILENO, flushThreshold: Int = 1 << 16) {
        self.descriptor = descriptor
        self.flushThreshold = flushThreshold
    }

    /// Flushes when the buffer has grown past the threshold; call after each line.
    mutating func lineDone() throws {
        if writer.bytes.count >= flushThreshold { try flush() }
    }

    mutating func flush() throws {
        try writer.bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CommandError("cannot write to standard output: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
        writer.removeAll()
    }
}

/// A failure reported to the user as one line on standard error.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
