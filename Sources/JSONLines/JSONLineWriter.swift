import GeoWakeCore

/// Builds newline-delimited JSON objects into a byte buffer, with no I/O and no Foundation:
/// the CLI prints millions of lines a second and the daemon frames its protocol with the same writer.
public struct JSONLineWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false
    private var fixDates = FixLineFormatter.DateCache()

    public init(reservingCapacity capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Opens an object nested as the value of `key`; `endObject` closes it.
    public mutating func beginObject(_ key: StaticString) {
        appendKey(key)
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Closes the object and ends the line.
    public mutating func endLine() {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    public mutating func field(_ key: StaticString, _ value: String) {
        appendKey(key)
        appendString(value)
    }

    public mutating func field(_ key: StaticString, _ value: Int) {
        appendKey(key)
        appendInteger(Int64(value))
    }

    public mutating func field(_ key: StaticString, _ value: Bool) {
        appendKey(key)
        appendLiteral(value ? "true" : "false")
    }

    /// A number rounded to at most `decimals` fractional digits, trailing zeros dropped.
    public mutating func field(_ key: StaticString, _ value: Double, decimals: Int) {
        appendKey(key)
        appendNumber(value, decimals: decimals)
    }

    /// Swift's shortest form that reads back as the same `Double` (`null` when not finite), for values stored to
    /// be restored exactly.
    public mutating func field(_ key: StaticString, exactly value: Double) {
        appendKey(key)
        guard value.isFinite else { return appendLiteral("null") }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A value that is already JSON text, copied as it is.
    public mutating func field(_ key: StaticString, json: String) {
        appendKey(key)
        bytes.append(contentsOf: json.utf8)
    }

    /// ISO 8601 UTC with milliseconds and `Z`, e.g. `2014-12-31T03:07:19.000Z`.
    public mutating func field(_ key: StaticString, _ value: Timestamp) {
        appendKey(key)
        appendTimestamp(value)
    }

    /// An array of strings, in the given order.
    public mutating func field(_ key: StaticString, _ values: [String]) {
        appendKey(key)
        bytes.append(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An array of `count` strings, element `i` given as the UTF-8 bytes `utf8(i)`: no String is made per
    /// element, which was most of `geowake locate`'s time.
    public mutating func field(_ key: StaticString, strings count: Int, utf8: (Int) -> UnsafeBufferPointer<UInt8>) {
        appendKey(key)
        bytes.append(UInt8(ascii: "["))
        for i in 0..<count {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            appendString(utf8: utf8(i))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func appendKey(_ key: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public mutating func appendString(_ value: String) {
        appendString(utf8: value.utf8)
    }

    /// The same from a buffer (ids from the region store): one copy when nothing needs escaping, the
    /// common case, instead of a branch and an append per byte.
    public mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
        if utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            Self.appendString(utf8, to: &bytes)
        } else {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// A string from its UTF-8 bytes, escaped as JSON requires.
    public mutating func appendString(utf8: some Sequence<UInt8>) {
        Self.appendString(utf8, to: &bytes)
    }

    /// A string from its UTF-8 bytes, quoted and escaped as JSON requires, appended to any byte buffer (the
    /// subscriber library writes its protocol lines with it).
    public static func appendString(_ utf8: some Sequence<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendUnsigned(value == .min ? UInt64(Int64.max) + 1 : UInt64(-value), minimumDigits: 1)
        } else {
            appendUnsigned(UInt64(value), minimumDigits: 1)
        }
    }

    private static let powersOfTen: [Double] = (0...15).map { (0..<$0).reduce(1.0) { acc, _ in acc * 10 } }

    public mutating func appendNumber(_ value: Double, decimals: Int) {
        guard value.isFinite else { appendLiteral("null"); return }
        let digits = min(max(decimals, 0), 15)
        let scale = Self.powersOfTen[digits]
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e15 else {
            // Beyond exact integer range: Swift's shortest round-trip form is valid JSON for finite values.
            bytes.append(contentsOf: "\(value)".utf8)
            return
        }
        var units = UInt64(scaled)
        var fractionDigits = digits
        while fractionDigits > 0 && units % 10 == 0 {
            units /= 10
            fractionDigits -= 1
        }
        if value < 0 && units != 0 { bytes.append(UInt8(ascii: "-")) }
        if fractionDigits == 0 {
            appendUnsigned(units, minimumDigits: 1)
            return
        }
        let divisor = UInt64(Self.powersOfTen[fractionDigits])
        appendUnsigned(units / divisor, minimumDigits: 1)
        bytes.append(UInt8(ascii: "."))
        appendUnsigned(units % divisor, minimumDigits: fractionDigits)
    }

    public mutating func appendTimestamp(_ t: Timestamp) {
        let c = t.civil
        bytes.append(UInt8(ascii: "\""))
        appendUnsigned(UInt64(max(c.year, 0)), minimumDigits: 4)
        // The rest laid out in a scratch buffer and appended once: digit by digit it was a tenth of `locate`'s time.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { raw in
            func put(_ value: Int, at offset: Int, digits: Int) {
                var v = value
                for i in stride(from: offset + digits - 1, through: offset, by: -1) {
                    raw[i] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
            }
            raw[0] = UInt8(ascii: "-"); raw[3] = UInt8(ascii: "-"); raw[6] = UInt8(ascii: "T"); raw[9] = UInt8(ascii: ":")
            raw[12] = UInt8(ascii: ":"); raw[15] = UInt8(ascii: "."); raw[19] = UInt8(ascii: "Z"); raw[20] = UInt8(ascii: "\"")
            put(c.month, at: 1, digits: 2)
            put(c.day, at: 4, digits: 2)
            put(c.hour, at: 7, digits: 2)
            put(c.minute, at: 10, digits: 2)
            put(c.second, at: 13, digits: 2)
            put(c.millisecond, at: 16, digits: 3)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0..<21]))
        }
    }

    private mutating func appendUnsigned(_ value: UInt64, minimumDigits: Int) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &scratch) { raw in
            var v = value
            var i = raw.count
            repeat {
                i -= 1
                raw[i] = UInt8(truncatingIfNeeded: v % 10) &+ UInt8(ascii: "0")
                v /= 10
            } while v > 0
            while raw.count - i < minimumDigits {
                i -= 1
                raw[i] = UInt8(ascii: "0")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i...]))
        }
    }
}

extension JSONLineWriter {
    /// The contract's fix keys: time (when known), lat, lon, then the optional values and mode.
    public mutating func fixFields(_ fix: Fix) {
        positionFields(fix)
        if let altitude = fix.altitudeMSL { field("altMSL", altitude, decimals: 3) }
        if let speed = fix.speed { field("speed", speed, decimals: 3) }
        if let course = fix.course { field("course", course, decimals: 3) }
        if let accuracy = fix.horizontalAccuracy { field("hAcc", accuracy, decimals: 3) }
        field("mode", fix.mode.rawValue)
        if let sats = fix.satellites { field("sats", sats) }
    }

    /// Time (when known), lat and lon: what a `geowake locate` line says of its fix.
    mutating func positionFields(_ fix: Fix) {
        if let time = fix.time { field("time", time) }
        field("lat", fix.coordinate.latitude, decimals: 9)
        field("lon", fix.coordinate.longitude, decimals: 9)
    }

    /// One `geowake fixes` line.
    public mutating func fixLine(_ fix: Fix) {
        line(shortcut: { $0.line(fix, &$1) }) {
            $0.fixFields(fix)
        }
    }

    /// One `geowake replay` line for a region event:
    /// `{"event":"enter","region":"id","time":…,"lat":…,"lon":…}`, plus `"crossed":true` for a crossing
    /// and `"reason":"regionRemoved"` for a removed region's final exit.
    public mutating func regionEventLine(_ event: RegionEvent) {
        line(shortcut: { $0.regionEventLine(event, &$1) }) { $0.regionEventFields(event) }
    }

    /// The region event keys, field by field: event, region, time (when known), lat, lon, crossed.
    mutating func regionEventFields(_ event: RegionEvent) {
        field("event", event.kind.name)
        field("region", event.regionID)
        if let time = event.fix.time { field("time", time) }
        field("lat", event.fix.coordinate.latitude, decimals: 9)
        field("lon", event.fix.coordinate.longitude, decimals: 9)
        if event.crossed { field("crossed", true) }
        if let reason = event.reason { field("reason", reason.rawValue) }
    }

    /// A line formatted by `FixLineFormatter` when it can, else field by field: the same bytes either way.
    @inline(__always)
    private mutating func line(shortcut: (inout FixLineFormatter, inout FixLineFormatter.DateCache) -> Void,
                               fields: (inout JSONLineWriter) -> Void) {
        let formatted = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FixLineFormatter.capacity) { buffer in
            var formatter = FixLineFormatter(buffer.baseAddress!)
            shortcut(&formatter, &fixDates)
            guard formatter.isExact else { return false }
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: formatter.count))
            return true
        }
        if formatted {
            needsComma = false
        } else {
            beginObject()
            fields(&self)
            endLine()
        }
    }
}
