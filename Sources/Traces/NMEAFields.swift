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
    @inline(__always) private mutating func advance() {
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

    /// Decodes the next fields with `decode`, unless they are the text `memo` remembers.
    mutating func memoized<Value>(_ memo: inout NMEAFieldMemo<Value>, _ decode: (inout NMEAFields) -> Value) -> Value {
        if !exhausted, let length = memo.matches(cursor, available: end - cursor), let value = memo.value {
            let last = cursor + length
            if last < end { cursor = last + 1 } else { exhausted = true }
            return value
        }
        let first = exhausted ? end : cursor
        let value = decode(&self)
        if !isMalformed { memo.remember(first, count: start + count - first, value) }
        return value
    }

    mutating func markMalformed() { isMalformed = true }

    /// Steps over the five-character address, which the caller has checked in place.
    mutating func skipAddress() {
        if end - cursor > 5 {
            cursor += 6
        } else {
            cursor = end
            exhausted = true
        }
    }

    /// Whether the sentence has another field: optional trailing fields (FAA mode, nav status) are
    /// read only when it does.
    var hasMoreFields: Bool { !exhausted }

    mutating func skip(_ fields: Int = 1) {
        for _ in 0..<fields { advance() }
    }

    /// Skips up to `fields` optional trailing fields, as many as the sentence has.
    mutating func skipOptional(_ fields: Int) {
        for _ in 0..<fields where !exhausted { advance() }
    }

    /// The current field's bytes, for the address and multi-character indicators.
    mutating func raw() -> UnsafeBufferPointer<UInt8> {
        advance()
        return UnsafeBufferPointer(start: start, count: count)
    }

    /// A one-character indicator such as a status `A`/`V` or a hemisphere.
    @inline(__always) mutating func character() -> UInt8? {
        advance()
        if count == 0 { return nil }
        if count != 1 { isMalformed = true }
        return start.pointee
    }

    /// A non-negative integer such as a satellite count or fix quality.
    @inline(__always) mutating func integer(maximum: Int) -> Int? {
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

    /// A decimal number within `range`, e.g. `-31.442`, `0.54`, `083.1`: scanned and decoded in one
    /// pass, as an exact integer mantissa and a power of ten, so the only rounding is the final division.
    @inline(__always) mutating func decimal(_ range: ClosedRange<Double>) -> Double? {
        guard !exhausted else {
            isMalformed = true
            count = 0
            return nil
        }
        start = cursor
        var p = cursor
        var negative = false
        if p < end && (p.pointee == UInt8(ascii: "-") || p.pointee == UInt8(ascii: "+")) {
            negative = p.pointee == UInt8(ascii: "-")
            p += 1
        }
        // Whole digits, then fraction digits, each in a tight loop; anything else before the comma
        // makes the field malformed. Wrapping arithmetic: over 17 digits is rejected before use.
        let digitsStart = p
        var mantissa: Int64 = 0
        while p < end, case let digit = p.pointee &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ Int64(digit)
            p += 1
        }
        var scale = 0
        let hasPoint = p < end && p.pointee == UInt8(ascii: ".")
        if hasPoint {
            p += 1
            while p < end, case let digit = p.pointee &- UInt8(ascii: "0"), digit < 10 {
                mantissa = mantissa &* 10 &+ Int64(digit)
                scale &+= 1
                p += 1
            }
        }
        let digits = p - digitsStart - (hasPoint ? 1 : 0)
        var valid = true
        while p < end && p.pointee != UInt8(ascii: ",") {
            valid = false
            p += 1
        }
        count = p - start
        if p < end { cursor = p + 1 } else { exhausted = true }
        if count == 0 { return nil }
        guard valid, digits > 0, digits <= 17 else {
            isMalformed = true
            return nil
        }
        guard let value = NMEAFields.decimal(mantissa: mantissa, scale: scale, negative: negative, range) else {
            isMalformed = true
            return nil
        }
        return value
    }

    /// `mantissa` / 10^`scale`, signed, when it is within `range`: the one rounding of a decimal field.
    @inline(__always)
    static func decimal(mantissa: Int64, scale: Int, negative: Bool, _ range: ClosedRange<Double>) -> Double? {
        let magnitude = Double(mantissa) / NMEAFields.powerOfTen(scale)
        let value = negative ? -magnitude : magnitude
        return range.contains(value) ? value : nil
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
            for i in 7..<count where start[i] &- UInt8(ascii: "0") >= 10 {
                isMalformed = true
                return nil
            }
            // The first three fraction digits, a missing one read as 0; the rest are truncated.
            let fractionDigits = count - 7
            func digit(_ k: Int) -> Int { k < fractionDigits ? Int(start[7 + k] &- UInt8(ascii: "0")) : 0 }
            millis = digit(0) * 100 + digit(1) * 10 + digit(2)
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
    /// Whole and fractional minutes are read as integers, so only the final division rounds.
    mutating func angle(maximumDegrees: Int64, positive: UInt8, negative: UInt8) -> Double? {
        guard !exhausted else {
            isMalformed = true
            count = 0
            return nil
        }
        let text = cursor
        var p = cursor
        var whole: Int64 = 0
        while p < end, case let digit = p.pointee &- UInt8(ascii: "0"), digit < 10 {
            whole = whole &* 10 &+ Int64(digit)
            p += 1
        }
        let wholeDigits = p - text
        var fraction: Int64 = 0
        var fractionDigits = 0
        if p < end && p.pointee == UInt8(ascii: ".") {
            p += 1
            while p < end, case let digit = p.pointee &- UInt8(ascii: "0"), digit < 10 {
                fraction = fraction &* 10 &+ Int64(digit)
                fractionDigits += 1
                p += 1
            }
        }
        var valid = true
        while p < end && p.pointee != UInt8(ascii: ",") {
            valid = false
            p += 1
        }
        let length = p - text
        if p < end { cursor = p + 1 } else { exhausted = true }
        advance()   // the hemisphere
        if length == 0 && count == 0 { return nil }
        guard valid, wholeDigits > 0, wholeDigits <= 6, fractionDigits <= 12, count == 1,
              start.pointee == positive || start.pointee == negative else {
            isMalformed = true
            return nil
        }
        guard let value = NMEAFields.degrees(whole: whole, fraction: fraction, fractionDigits: fractionDigits,
                                             maximumDegrees: maximumDegrees) else {
            isMalformed = true
            return nil
        }
        return start.pointee == negative ? -value : value
    }

    /// Degrees of `dddmm.mmmm` read as the integers `dddmm` and `mmmm` (of `fractionDigits` digits), when
    /// the minutes are below 60 and the degrees within `maximumDegrees`: only the final division rounds.
    @inline(__always)
    static func degrees(whole: Int64, fraction: Int64, fractionDigits: Int, maximumDegrees: Int64) -> Double? {
        let degrees = whole / 100
        let unit = Int64(NMEAFields.powerOfTen(fractionDigits))
        let minutes = (whole % 100) &* unit &+ fraction
        guard degrees <= maximumDegrees, minutes < 60 * unit, degrees < maximumDegrees || minutes == 0 else { return nil }
        return Double(degrees) + Double(minutes) / (60 * Double(unit))
    }

    private func twoDigits(_ offset: Int) -> Int? {
        let a = start[offset] &- UInt8(ascii: "0"), b = start[offset + 1] &- UInt8(ascii: "0")
        guard a < 10, b < 10 else { return nil }
        return Int(a) * 10 + Int(b)
    }
}

extension NMEAFields {
    /// 10^k for k up to 17 (longer digit runs are rejected before use). A table rather than a
    /// switch: the switch compiled to an indirect jump that mispredicted on every change of length.
    @inline(__always) static func powerOfTen(_ k: Int) -> Double {
        powersOfTen[min(k, 17)]
    }

    private static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
    ]
}

struct NMEAPosition: Sendable {
    var latitude: Double
    var longitude: Double
}
