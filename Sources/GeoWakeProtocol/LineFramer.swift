/// The protocol's framing, for both ends: messages are lines ending in a newline, at most `maximumLine` bytes each.
/// Bytes go in as they arrive; whole lines come out one at a time, so a reader takes a line only when it is ready
/// for it and what a peer pipelines can wait in its socket.
public struct LineFramer: Sendable {
    /// Lines longer than this are a protocol violation by the peer, not something to buffer without bound.
    public static let maximumLine = 1 << 20

    private var buffer: [UInt8] = []
    /// Where the next line starts, and how far a newline was already looked for.
    private var start = 0
    private var scanned = 0

    public init() {}

    public enum Next: Equatable, Sendable {
        case line([UInt8])
        /// No whole line yet.
        case none
        /// More than `maximumLine` bytes without a newline: the stream cannot be framed any more.
        case tooLong
    }

    /// Bytes held that are not yet taken as lines.
    public var bufferedBytes: Int { buffer.count - start }

    /// Adds what was read; the space of lines already taken is reused once it is half the buffer.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Whether a whole line is waiting (looking at each byte once over repeated calls).
    public mutating func hasCompleteLine() -> Bool {
        guard let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = buffer.count
            return false
        }
        scanned = newline
        return true
    }

    /// The next whole line without its newline, taken out of the buffer.
    public mutating func next() -> Next {
        if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline - start > Self.maximumLine { return .tooLong }
            let line = Array(buffer[start..<newline])
            start = newline + 1
            scanned = start
            if start == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
            }
            return .line(line)
        }
        scanned = buffer.count
        return buffer.count - start > Self.maximumLine ? .tooLong : .none
    }
}
