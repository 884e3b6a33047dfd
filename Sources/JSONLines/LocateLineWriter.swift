import GeoWakeCore

/// `geowake locate`'s lines, `{"time":…,"lat":…,"lon":…,"regions":["a","b"]}`, written straight into one large
/// buffer: the fix's fields by `FixLineFormatter`, then each id as one copy of bytes quoted beforehand
/// (`QuotedStrings`). At two million lines a second, appending field by field and escaping every id again
/// was most of the time. Byte-identical to `JSONLineWriter`'s fields.
public struct LocateLineWriter: Sendable {
    /// Always at full size; the lines are the first `count` bytes.
    private var buffer: [UInt8]
    public private(set) var count = 0
    private var dates = FixLineFormatter.DateCache()

    public init(capacity: Int = 1 << 20) {
        buffer = Array(repeating: 0, count: capacity)
    }

    /// The last line's `,"regions":[…]}\n`, for the next line when its fix is in the same regions.
    private var regions: [UInt8] = []

    /// Appends the line of `fix` with the strings `order` names, in that order.
    public mutating func line(_ fix: Fix, strings: QuotedStrings.View, order: UnsafeBufferPointer<UInt32>) {
        // The ids' copies may write 16 bytes past their end: the formatter's capacity covers that.
        var needed = FixLineFormatter.capacity
        for k in order { needed &+= strings.count(k) &+ 1 }
        reserve(needed)
        var regionsStart = 0
        let written = buffer.withUnsafeMutableBufferPointer { raw -> Int in
            let start = raw.baseAddress! + count
            var p = Self.fixFields(fix, at: start, &dates)
            regionsStart = p - raw.baseAddress!
            let key: StaticString = ",\"regions\":["
            p.update(from: key.utf8Start, count: key.utf8CodeUnitCount)
            p += key.utf8CodeUnitCount
            for (i, k) in order.enumerated() {
                if i > 0 {
                    p.pointee = UInt8(ascii: ",")
                    p += 1
                }
                p += strings.copy(k, to: p)
            }
            p[0] = UInt8(ascii: "]")
            p[1] = UInt8(ascii: "}")
            p[2] = UInt8(ascii: "\n")
            return p + 3 - start
        }
        count += written
        regions.removeAll(keepingCapacity: true)
        regions.append(contentsOf: buffer[regionsStart..<count])
    }

    /// Appends the line of `fix` with the regions of the last line: consecutive fixes are nearly always in the
    /// same regions (94% of lines at 1M regions, 1M fixes), and then ranking, sorting and copying the ids again
    /// is work thrown away (about 120 instructions a fix of 4,570; 1.6% of the loop's time when link-time optimised).
    public mutating func lineRepeatingRegions(_ fix: Fix) {
        reserve(FixLineFormatter.capacity &+ regions.count)
        let written = buffer.withUnsafeMutableBufferPointer { raw -> Int in
            let start = raw.baseAddress! + count
            let p = Self.fixFields(fix, at: start, &dates)
            regions.withUnsafeBufferPointer { if let base = $0.baseAddress { p.update(from: base, count: $0.count) } }
            return p + regions.count - start
        }
        count += written
    }

    private mutating func reserve(_ needed: Int) {
        if count + needed > buffer.count { buffer += repeatElement(0, count: max(needed, buffer.count)) }
    }

    /// Writes `{"time":…,"lat":…,"lon":…` at `start` and returns where it ends.
    @inline(__always)
    private static func fixFields(_ fix: Fix, at start: UnsafeMutablePointer<UInt8>,
                                  _ dates: inout FixLineFormatter.DateCache) -> UnsafeMutablePointer<UInt8> {
        var formatter = FixLineFormatter(start)
        formatter.locateFields(fix, &dates)
        if formatter.isExact { return start + formatter.count }
        // A coordinate `FixLineFormatter` does not print exactly (not finite, or huge): the long way.
        var long = JSONLineWriter(reservingCapacity: 256)
        long.beginObject()
        long.positionFields(fix)
        long.bytes.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: $0.count) }
        return start + long.bytes.count
    }

    /// Hands the lines so far to `body` (to write them out) and empties the buffer.
    public mutating func drain(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        count = 0
    }
}

/// Strings quoted and escaped for JSON once, kept end to end, to be copied into many lines.
public struct QuotedStrings: Sendable {
    private var text = JSONLineWriter(reservingCapacity: 0)
    private var ends: [UInt32] = []

    public init() {}

    public var count: Int { ends.count }

    /// Adds a string from its UTF-8 bytes; it is number `count` before the call.
    public mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        text.appendString(utf8: utf8)
        ends.append(UInt32(text.bytes.count))
    }

    /// The strings for reading in a loop, valid only inside `body`.
    public func withView<R>(_ body: (View) throws -> R) rethrows -> R {
        try text.bytes.withUnsafeBufferPointer { bytes in
            try ends.withUnsafeBufferPointer { ends in
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                return try body(View(bytes: base, ends: ends.baseAddress ?? UnsafePointer(bitPattern: 4)!,
                              wholeWords: base + max(bytes.count - 16, -1)))
            }
        }
    }

    public struct View {
        let bytes: UnsafePointer<UInt8>
        let ends: UnsafePointer<UInt32>
        /// Strings starting at or before this are followed by at least 16 bytes of the table.
        let wholeWords: UnsafePointer<UInt8>

        /// Copies string `k` to `destination`, which has room for 16 bytes more than it, and returns its length.
        /// Ids are short: two 8-byte moves copy most of them, where a `memcpy` call cost more than the copy.
        @inline(__always) func copy(_ k: UInt32, to destination: UnsafeMutablePointer<UInt8>) -> Int {
            let start = k == 0 ? 0 : Int(ends[Int(k) - 1])
            let count = Int(ends[Int(k)]) - start
            let source = bytes + start
            if count <= 16 && source <= wholeWords {
                let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
                to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
            } else {
                destination.update(from: source, count: count)
            }
            return count
        }

        @inline(__always) func count(_ k: UInt32) -> Int {
            Int(ends[Int(k)]) - (k == 0 ? 0 : Int(ends[Int(k) - 1]))
        }
    }
}
