#if canImport(Glibc)
import Glibc
#endif

/// Cuts a byte stream into lines for the line-based formats, carrying a partial line between chunks.
/// A line longer than `maximumLength` is handed over as over-long (its bytes are not kept).
struct LineSplitter: Sendable {
    let maximumLength: Int
    private var carry: [UInt8] = []
    private var carryIsOverlong = false

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Calls `line` with each complete line (without its line feed), or nil for an over-long line.
    mutating func split(_ bytes: UnsafeRawBufferPointer, _ line: (UnsafeBufferPointer<UInt8>?) -> Void) {
        guard let raw = bytes.baseAddress, bytes.count > 0 else { return }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let end = base + bytes.count
        var p = base
        while p < end {
            guard let hit = memchr(p, Int32(UInt8(ascii: "\n")), end - p) else {
                append(p, end - p)
                return
            }
            let lineFeed = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
            if carry.isEmpty && !carryIsOverlong {
                line(lineFeed - p <= maximumLength ? UnsafeBufferPointer(start: p, count: lineFeed - p) : nil)
            } else {
                append(p, lineFeed - p)
                takeCarry(line)
            }
            p = lineFeed + 1
        }
    }

    /// The last line, when the input does not end with a line feed.
    mutating func finish(_ line: (UnsafeBufferPointer<UInt8>?) -> Void) {
        if !carry.isEmpty || carryIsOverlong { takeCarry(line) }
    }

    private mutating func append(_ start: UnsafePointer<UInt8>, _ count: Int) {
        guard !carryIsOverlong else { return }
        if carry.count + count > maximumLength {
            carryIsOverlong = true
            carry = []
        } else {
            carry.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
        }
    }

    private mutating func takeCarry(_ line: (UnsafeBufferPointer<UInt8>?) -> Void) {
        if carryIsOverlong {
            line(nil)
        } else {
            carry.withUnsafeBufferPointer { line($0) }
        }
        carry.removeAll(keepingCapacity: true)
        carryIsOverlong = false
    }
}
