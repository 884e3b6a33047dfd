/// Walks the comma-separated fields of one checksum-verified sentence body and decodes them straight
/// from the bytes.
///
/// Every accessor consumes one field. An empty field reads as nil (the receiver had no value); a
/// field that is present but not a valid value, or a field missing at the end of the sentence, sets
/// `isMalformed`, which the sentence handler checks once before it uses anything it read.
struct NMEAFields {
    private var cursor: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>
    private var exhausted = false
    private var start: UnsafePointer<UInt8>
    private var count = 0
    private(set) var isMalformed = false

    /// `body` is the sentence between `$` and `*`, starting with the address field ("GPGGA").
    init(_ body: UnsafePointer<UInt8>, count: Int) {
        cursor = body
        end = body + count
        start = body
    }

    /// Moves to the next field; a field that is not there is malformed input.
    private mutating func advance() {
        guard !exhausted else {
            isMalformed = true
            count = 0
            return
        }
        start = cursor
        var p = cursor
        while p < end && p.pointee != UInt8(ascii: ",") { p += 1 }
        count = p - start
        if p < end { cursor = p + 1 } else { exhausted = true }
    }

    /// Whether the sentence has another field: optional trailing fields (FAA mode, nav status) are
    /// read only when it does.
    var hasMoreFields: Bool { !exhausted }

    mutating func skip(_ fields: Int = 1) {
        for _ in 0..<fields { advance() }
    }

    /// The current field's bytes, for the address and multi-character indicators.
    mutating func raw() -> UnsafeBufferPointer<UInt8> {
        advance()
        return UnsafeBufferPointer(start: start, count: count)
    }

    /// A one-character indicator such as a status `A`/`V` or a hemisphere.
    mutating func character() -> UInt8? {
        advance()
        if count == 0 { return nil }
        if count != 1 { isMalformed = true }
        return start.pointee
    }

    /// A non-negative integer such as a satellite count or fix quality.
    mutating func integer(maximum: Int) -> Int? {
        advance()
        if count == 0 { return nil }
        guard count <= 9 else { isMalformed = true; return nil }
        var value = 0
        for i in 0..<count {
            let digit = start[i] &- UInt8(ascii: "0")
            guard digit < 10 else { isMalformed = true; return nil }
            value = value * 10 + Int(digit)
        }
        guard value <= maximum else { isMalformed = true; return nil }
        return value
    }

    /// A decimal number within `range`, e.g. `-31.442`, `0.54`, `083.1`.
    mutating func decimal(_ range: ClosedRange<Double>) -> Double? {
        advance()
        if count == 0 { return nil }
        guard let d = NMEADecimal(start, count) else { isMalformed = true; return nil }
        let value = d.value
        guard range.contains(value) else { isMalformed = true; return nil }
        return value
    }

    /// UTC time of day `hhmmss` with optional fraction, in milliseconds (fraction truncated to ms).
    mutating func timeOfDay() -> Int32? {
        advance()
        if count == 0 { return nil }
        guard count >= 6, let h = twoDigits(0), let m = twoDigits(2), let s = twoDigits(4),
              h < 24, m < 60, s <= 60 else { isMalformed = true; return nil }
        var millis = 0
        if count > 6 {
            guard start[6] == UInt8(ascii: "."), count <= 16 else { isMalformed = true; return nil }
            var scale = 100
            for i in 7..<count {
                let digit = start[i] &- UInt8(ascii: "0")
                guard digit < 10 else { isMalformed = true; return nil }
                millis += Int(digit) * scale
                scale /= 10
            }
        }
        return Int32(((h * 60 + m) * 60 + s) * 1000 + millis)
    }

    /// An RMC date `ddmmyy`: day, month and two-digit year.
    mutating func dayMonthYear() -> (day: Int, month: Int, year: Int)? {
        advance()
        if count == 0 { return nil }
        guard count == 6, let d = twoDigits(0), let m = twoDigits(2), let y = twoDigits(4),
              (1...12).contains(m), d >= 1, d <= 31 else { isMalformed = true; return nil }
        return (d, m, y)
    }

    /// A latitude (`ddmm.mmmm` and `N`/`S`) or longitude (`dddmm.mmmm` and `E`/`W`): two fields.
    /// Both empty is "no position" (nil); one without the other, or minutes ≥ 60, is malformed.
    mutating func angle(maximumDegrees: Int64, positive: UInt8, negative: UInt8) -> Double? {
        advance()
        let valueStart = start, valueCount = count
        advance()
        if valueCount == 0 && count == 0 { return nil }
        guard valueCount > 0, count == 1, start.pointee == positive || start.pointee == negative,
              let d = NMEADecimal(valueStart, valueCount), !d.negative else { isMalformed = true; return nil }
        let unit = NMEADecimal.powerOfTen(d.scale)
        let wholeMinutes = d.mantissa / Int64(unit)
        let degrees = wholeMinutes / 100
        let minutes = d.mantissa - degrees * 100 * Int64(unit)
        guard degrees <= maximumDegrees, minutes < 60 * Int64(unit),
              degrees < maximumDegrees || minutes == 0 else { isMalformed = true; return nil }
        let value = Double(degrees) + Double(minutes) / (60 * unit)
        return start.pointee == negative ? -value : value
    }

    private func twoDigits(_ offset: Int) -> Int? {
        let a = start[offset] &- UInt8(ascii: "0"), b = start[offset + 1] &- UInt8(ascii: "0")
        guard a < 10, b < 10 else { return nil }
        return Int(a) * 10 + Int(b)
    }
}

/// A decimal number as read, `mantissa / 10^scale`: exact, so degrees-and-minutes arithmetic
/// and the final division round once.
struct NMEADecimal {
    var mantissa: Int64
    var scale: Int
    var negative: Bool

    /// Accepts an optional sign, digits and at most one `.`; at most 17 digits, so the mantissa
    /// converts to `Double` exactly.
    init?(_ s: UnsafePointer<UInt8>, _ count: Int) {
        var i = 0
        negative = false
        if count > 0 && (s[0] == UInt8(ascii: "-") || s[0] == UInt8(ascii: "+")) {
            negative = s[0] == UInt8(ascii: "-")
            i = 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while i < count {
            let c = s[i]
            let digit = c &- UInt8(ascii: "0")
            if digit < 10 {
                mantissa = mantissa * 10 + Int64(digit)
                digits += 1
                if seenPoint { scale += 1 }
            } else if c == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0, digits <= 17 else { return nil }
        self.mantissa = mantissa
        self.scale = scale
    }

    var value: Double {
        let magnitude = Double(mantissa) / NMEADecimal.powerOfTen(scale)
        return negative ? -magnitude : magnitude
    }

    @inline(__always) static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        default: return 1e17
        }
    }
}
