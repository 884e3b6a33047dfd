/// The events one input message caused for one device, in order: JSON lines, each ending in a newline. They
/// travel as the body of one events-stream message, so JetStream's cost per message (the publish, its
/// acknowledgement, the de-duplication id, the server's storing) is paid once per input message, not per event.
struct EventLines {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    init() {
        bytes.reserveCapacity(4096)
    }

    /// From a whole body (tests): its lines are counted.
    init(_ body: [UInt8]) {
        bytes = body
        count = body.lazy.filter { $0 == 0x0A }.count
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        count = 0
    }

    /// One event line, without its newline.
    mutating func append(_ line: ArraySlice<UInt8>) {
        bytes.append(contentsOf: line)
        bytes.append(0x0A)
        count += 1
    }

    /// The body cut at line ends into pieces of at most `limit` bytes (a line longer than that alone), for an
    /// input whose events outgrow the server's `max_payload`; nearly always the whole body.
    func parts(limit: Int) -> [Range<Int>] {
        guard bytes.count > limit else { return [0..<bytes.count] }
        var parts: [Range<Int>] = []
        var start = 0
        var lastEnd = 0
        for (i, byte) in bytes.enumerated() where byte == 0x0A {
            if i + 1 - start > limit, lastEnd > start {
                parts.append(start..<lastEnd)
                start = lastEnd
            }
            lastEnd = i + 1
        }
        if lastEnd > start { parts.append(start..<lastEnd) }
        return parts
    }

    /// Each line without its newline (tests, readers).
    var lines: [String] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }
}
