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
        try writer.bytes.withUnsafeBytes { try StandardOutput.write($0, to: descriptor) }
        writer.removeAll()
    }

    /// What `locate` collects before it writes: blocks this large take a write call per few thousand lines.
    static let blockSize = 1 << 18

    /// All of `raw`, through as many `write` calls as it takes.
    static func write(_ raw: UnsafeRawBufferPointer, to descriptor: Int32 = STDOUT_FILENO) throws {
        var offset = 0
        while offset < raw.count {
            let n = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandError("cannot write to standard output: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}

/// A failure reported to the user as one line on standard error.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
