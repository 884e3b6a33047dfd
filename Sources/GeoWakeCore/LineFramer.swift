#if canImport(Glibc)
import Glibc
#endif

/// Cuts a byte stream into lines ending in a newline: the protocol's messages at both ends (the daemon's
/// connections, the library's socket) and the JSON-lines traces (gpsd JSON, beacon traces). A line is at most
/// `maximumLine` bytes; a longer one is reported once as too long as soon as it passes the maximum, and its bytes,
/// up to its newline, are dropped, so memory stays bounded and the lines after it are framed as usual. A last line
/// without a newline is a line only for whoever calls `finish` (a file's end; a socket's peer may still send it).
///
/// Two ways in, one framing: `append` and `next` hold the bytes and hand out one line at a time (a connection takes
/// a request only when it is ready for it, so what a peer pipelines waits in its socket); `split` lends each line
/// of a chunk to a closure, straight from the chunk when no earlier partial line is held (a trace reader).
package struct LineFramer: Sendable {
    /// The protocol's limit: lines longer than this are a violation by the peer, not something to buffer.
    package static let maximumProtocolLine = 1 << 20

    package let maximumLine: Int
    private var buffer: [UInt8] = []
    /// Where the next line starts, and how far a newline was already looked for.
    private var start = 0
    private var scanned = 0
    /// The line being received passed `maximumLine` and was reported: its bytes are dropped up to its newline.
    private var skipping = false

    package init(maximumLine: Int = LineFramer.maximumProtocolLine) {
        self.maximumLine = maximumLine
    }

    package enum Next: Equatable, Sendable {
        case line([UInt8])
        /// No whole line yet.
        case none
        /// A line passed `maximumLine`; it is dropped, and framing goes on after it.
        case tooLong
    }

    /// Bytes held that are not yet taken as lines.
    package var bufferedBytes: Int { buffer.count - start }

    /// Adds what was read; the space of lines already taken is reused once it is half the buffer.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Whether a whole line is waiting (looking at each byte once over repeated calls).
    package mutating func hasCompleteLine() -> Bool {
        skipOverlongLine()
        guard !skipping, let newline = newline(from: scanned) else {
            scanned = buffer.count
            return false
        }
        scanned = newline
        return true
    }

    /// The next whole line without its newline, taken out of the buffer.
    package mutating func next() -> Next {
        take { line in line.map { .line(Array($0)) } ?? .tooLong } ?? .none
    }

    /// Every whole line of `bytes` to `line` in order (nil for one that is too long), each lent for the call only.
    /// A partial line at the end is held for the next chunk or `finish`.
    package mutating func split(_ bytes: UnsafeRawBufferPointer, _ line: (UnsafeBufferPointer<UInt8>?) -> Void) {
        guard let raw = bytes.baseAddress, bytes.count > 0 else { return }
        var p = raw.assumingMemoryBound(to: UInt8.self)
        let end = p + bytes.count
        // A line begun in an earlier chunk ends in this one.
        if skipping || bufferedBytes > 0 {
            guard let lineFeed = Self.find(p, end) else {
                hold(p, end, line)
                return
            }
            if skipping {
                skipping = false
            } else if bufferedBytes + (lineFeed - p) > maximumLine {
                line(nil)
            } else {
                append(UnsafeBufferPointer(start: p, count: lineFeed - p))
                buffer.withUnsafeBufferPointer { line(UnsafeBufferPointer(rebasing: $0[start...])) }
            }
            empty()
            p = lineFeed + 1
        }
        // Then each whole line straight from the chunk.
        while let lineFeed = Self.find(p, end) {
            line(lineFeed - p <= maximumLine ? UnsafeBufferPointer(start: p, count: lineFeed - p) : nil)
            p = lineFeed + 1
        }
        hold(p, end, line)
    }

    /// The end of the stream: what is held after the last newline is the last line.
    package mutating func finish(_ line: (UnsafeBufferPointer<UInt8>?) -> Void) {
        while take(line) != nil {}
        if !skipping && bufferedBytes > 0 {
            buffer.withUnsafeBufferPointer { line(UnsafeBufferPointer(rebasing: $0[start...])) }
        }
        empty()
        skipping = false
    }

    /// Holds the start of a line still arriving (no newline in it), or reports the line too long once it passes
    /// the maximum, copying none of it.
    private mutating func hold(_ from: UnsafePointer<UInt8>, _ to: UnsafePointer<UInt8>,
                               _ line: (UnsafeBufferPointer<UInt8>?) -> Void) {
        guard from < to, !skipping else { return }
        guard bufferedBytes + (to - from) <= maximumLine else {
            empty()
            skipping = true
            line(nil)
            return
        }
        append(UnsafeBufferPointer(start: from, count: to - from))
    }

    /// Lends the next whole line to `body` (nil when it is too long) and takes it out; nil when none is waiting.
    private mutating func take<R>(_ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R? {
        skipOverlongLine()
        guard !skipping else { return nil }
        guard let newline = newline(from: scanned) else {
            scanned = buffer.count
            guard bufferedBytes > maximumLine else { return nil }
            // Past the maximum without a newline: reported now, and its bytes dropped up to the newline to come.
            empty()
            skipping = true
            return body(nil)
        }
        let result = newline - start > maximumLine
            ? body(nil)
            : buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<newline])) }
        start = newline + 1
        scanned = start
        if start == buffer.count { empty() }
        return result
    }

    /// Drops the held rest of an over-long line, through its newline once that came.
    private mutating func skipOverlongLine() {
        guard skipping else { return }
        if let newline = newline(from: start) {
            start = newline + 1
            scanned = start
            skipping = false
        } else {
            empty()
        }
    }

    private mutating func empty() {
        buffer.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
    }

    private func newline(from index: Int) -> Int? {
        guard index < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { all in
            Self.find(all.baseAddress! + index, all.baseAddress! + all.count).map { $0 - all.baseAddress! }
        }
    }

    private static func find(_ from: UnsafePointer<UInt8>, _ to: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        guard from < to, let hit = memchr(from, Int32(UInt8(ascii: "\n")), to - from) else { return nil }
        return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
    }
}
