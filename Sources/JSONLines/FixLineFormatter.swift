import GeoWakeCore

/// Formats one `geowake fixes` line, or one `geowake replay` region event line, straight into raw memory for
/// `JSONLineWriter`: the CLI prints about a million fix lines a second, and appending field by field to an
/// array cost more than parsing the NMEA they came from. Output is byte-identical to the field-by-field form
/// (`beginObject`, the fields, `endLine`); values the shortcut does not cover (non-finite, beyond exact
/// integer range, an id that needs escaping or is very long) go the long way (see `isExact`).
struct FixLineFormatter {
    /// Longest line the shortcut can produce: five numbers of at most 26 bytes, a timestamp, keys (an event line:
    /// an id of at most `regionIDLimit` bytes, two numbers, a timestamp, keys).
    static let capacity = 384

    private let start: UnsafeMutablePointer<UInt8>
    private var p: UnsafeMutablePointer<UInt8>

    init(_ buffer: UnsafeMutablePointer<UInt8>) {
        start = buffer
        p = buffer
    }

    var count: Int { p - start }

    /// False once a number was beyond what `number` prints exactly as `appendNumber` does
    /// (non-finite, or beyond exact integer range once scaled): the line must then be written the
    /// long way. Checked as the numbers are written rather than in a pass before, as they all fit.
    private(set) var isExact = true

    mutating func line(_ fix: Fix, _ dates: inout DateCache) {
        locateFields(fix, &dates)
        if let altitude = fix.altitudeMSL {
            literal(",\"altMSL\":")
            number(altitude, decimals: 3, scale: 1e3)
        }
        if let speed = fix.speed {
            literal(",\"speed\":")
            number(speed, decimals: 3, scale: 1e3)
        }
        if let course = fix.course {
            literal(",\"course\":")
            number(course, decimals: 3, scale: 1e3)
        }
        if let accuracy = fix.horizontalAccuracy {
            literal(",\"hAcc\":")
            number(accuracy, decimals: 3, scale: 1e3)
        }
        literal(",\"mode\":")
        unsigned(UInt64(fix.mode.rawValue), minimumDigits: 1)
        if let sats = fix.satellites {
            literal(",\"sats\":")
            if sats < 0 { byte(UInt8(ascii: "-")) }
            unsigned(UInt64(sats.magnitude), minimumDigits: 1)
        }
        byte(UInt8(ascii: "}"))
        byte(UInt8(ascii: "\n"))
    }

    /// The start of a fix line and all of a `geowake locate` line's fix: `{"time":"…","lat":…,"lon":…`.
    @inline(__always) mutating func locateFields(_ fix: Fix, _ dates: inout DateCache) {
        byte(UInt8(ascii: "{"))
        if let time = fix.time {
            literal("\"time\":\"")
            timestamp(time, &dates)
            literal("\",\"lat\":")
        } else {
            literal("\"lat\":")
        }
        number(fix.coordinate.latitude, decimals: 9, scale: 1e9)
        literal(",\"lon\":")
        number(fix.coordinate.longitude, decimals: 9, scale: 1e9)
    }

    /// One `geowake replay` region event line, as `JSONLineWriter.regionEventLine` writes it the long way.
    /// The id is copied as it is, so the shortcut takes only ids that need no escaping and fit the buffer.
    mutating func regionEventLine(_ event: RegionEvent, _ dates: inout DateCache) {
        byte(UInt8(ascii: "{"))
        switch event.kind {
        case .exit: literal("\"event\":\"exit\",\"region\":\"")
        case .enter: literal("\"event\":\"enter\",\"region\":\"")
        case .dwell: literal("\"event\":\"dwell\",\"region\":\"")
        }
        plainText(event.regionID, limit: FixLineFormatter.regionIDLimit)
        guard isExact else { return }
        if let time = event.fix.time {
            literal("\",\"time\":\"")
            timestamp(time, &dates)
            literal("\",\"lat\":")
        } else {
            literal("\",\"lat\":")
        }
        number(event.fix.coordinate.latitude, decimals: 9, scale: 1e9)
        literal(",\"lon\":")
        number(event.fix.coordinate.longitude, decimals: 9, scale: 1e9)
        if event.crossed { literal(",\"crossed\":true") }
        switch event.reason {
        case nil: break
        case .regionRemoved: literal(",\"reason\":\"regionRemoved\"")
        }
        byte(UInt8(ascii: "}"))
        byte(UInt8(ascii: "\n"))
    }

    /// Bytes of an id the event line shortcut copies: with the rest of the line (keys, a timestamp, two
    /// numbers, under 150 bytes) it stays within `capacity`.
    static let regionIDLimit = 200

    /// Copies `text` when it is at most `limit` bytes and none needs escaping in a JSON string.
    private mutating func plainText(_ text: String, limit: Int) {
        var text = text
        text.withUTF8 { utf8 in
            guard utf8.count <= limit else {
                isExact = false
                return
            }
            for c in utf8 where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
                isExact = false
                return
            }
            if let base = utf8.baseAddress { p.update(from: base, count: utf8.count) }
            p += utf8.count
        }
    }

    private mutating func byte(_ b: UInt8) {
        p.pointee = b
        p += 1
    }

    private mutating func literal(_ s: StaticString) {
        p.update(from: s.utf8Start, count: s.utf8CodeUnitCount)
        p += s.utf8CodeUnitCount
    }

    /// `appendNumber`'s rule: rounded half away from zero to `decimals`, trailing zeros dropped, no "-0".
    /// Inlined, so that each caller's constant `decimals` and `scale` fold away.
    @inline(__always) private mutating func number(_ value: Double, decimals: Int, scale: Double) {
        let scaled = abs(value) * scale
        guard scaled < 8.9e15 else {   // false for infinities and NaN too
            isExact = false
            return
        }
        // Exact round-half-away-from-zero without a libm call: below 2^53 the truncation and the
        // remainder `scaled - truncated` are both exact. Signed conversions, because x86 has no
        // single instruction for unsigned 64-bit ones.
        let truncated = Int64(scaled)
        // The comparison's flag added as a number: written as a conditional it compiled to a branch taken
        // half the time at random, a misprediction for every other coordinate.
        let roundsUp = unsafeBitCast(scaled - Double(truncated) >= 0.5, to: UInt8.self)
        let units = UInt64(truncated) &+ UInt64(roundsUp)
        if value < 0 && units != 0 { byte(UInt8(ascii: "-")) }
        // Constant divisors (1e9, 1e3), so the splits compile to multiplications.
        let whole = decimals == 9 ? units / 1_000_000_000 : units / 1_000
        let fraction = decimals == 9 ? units % 1_000_000_000 : units % 1_000
        unsigned(whole, minimumDigits: 1)
        guard fraction != 0 else { return }
        // All the digits, then the trailing zeros taken back: cheaper than dividing them away. They
        // are counted without a loop (their number varies from value to value, and a loop's exit
        // mispredicted) and without reading back the digits just stored (a stalled load).
        byte(UInt8(ascii: "."))
        if decimals == 9 {
            let v = UInt32(truncatingIfNeeded: fraction)
            byte(UInt8(truncatingIfNeeded: v / 100_000_000) &+ UInt8(ascii: "0"))
            let rest = FixLineFormatter.eightDigits(v % 100_000_000)
            UnsafeMutableRawPointer(p).storeBytes(of: (rest | 0x3030_3030_3030_3030).littleEndian, as: UInt64.self)
            // The last digit is the most significant byte, so trailing zero digits are leading zero bytes.
            p += 8 - rest.leadingZeroBitCount / 8
        } else {
            let v = UInt32(truncatingIfNeeded: fraction)
            threeDigits(v)
            p -= (v % 10 == 0 ? 1 : 0) + (v % 100 == 0 ? 1 : 0)
        }
    }

    /// The eight decimal digits of `v` < 10^8 as byte values 0…9, the first digit in the lowest byte.
    /// Halves, quarters and single digits are split in parallel lanes of one register, the divisions
    /// done as multiplications by scaled reciprocals (exact for these ranges).
    static func eightDigits(_ v: UInt32) -> UInt64 {
        let halves = UInt64(v / 10_000) | UInt64(v % 10_000) << 32
        let hundreds = (halves &* 10_486) >> 20 & 0x0000_007F_0000_007F   // n / 100 in 32-bit lanes
        let quarters = hundreds | (halves &- hundreds &* 100) << 16
        let tens = (quarters &* 103) >> 10 & 0x000F_000F_000F_000F         // n / 10 in 16-bit lanes
        return tens | (quarters &- tens &* 10) << 8
    }

    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Decimal digits, zero-padded to `minimumDigits`. Whole parts, modes and counts are nearly all
    /// below 100: those are written inline, without counting the digits first.
    @inline(__always) private mutating func unsigned(_ value: UInt64, minimumDigits: Int) {
        if value < 100 && minimumDigits <= 2 {
            if value >= 10 || minimumDigits == 2 {
                twoDigits(Int(truncatingIfNeeded: value))
            } else {
                byte(UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0"))
            }
        } else {
            anyUnsigned(value, minimumDigits: minimumDigits)
        }
    }

    private mutating func anyUnsigned(_ value: UInt64, minimumDigits: Int) {
        var count = 1
        var rest = value
        while rest >= 100 {
            rest /= 100
            count += 2
        }
        if rest >= 10 { count += 1 }
        digits(value, count: max(count, minimumDigits))
    }

    /// Exactly `count` digits of `value` (which has at most that many), two at a time.
    private mutating func digits(_ value: UInt64, count: Int) {
        let pairs = FixLineFormatter.digitPairs.utf8Start
        var v = value
        var i = count
        while i >= 2 {
            let pair = Int(v % 100) &* 2
            v /= 100
            i -= 2
            p[i] = pairs[pair]
            p[i + 1] = pairs[pair + 1]
        }
        if i == 1 { p[0] = UInt8(truncatingIfNeeded: v) &+ UInt8(ascii: "0") }
        p += count
    }

    /// Exactly three digits of `v` < 1000.
    private mutating func threeDigits(_ v: UInt32) {
        let pair = Int(v % 100) &* 2
        p[0] = UInt8(truncatingIfNeeded: v / 100) &+ UInt8(ascii: "0")
        p[1] = FixLineFormatter.digitPairs.utf8Start[pair]
        p[2] = FixLineFormatter.digitPairs.utf8Start[pair + 1]
        p += 3
    }

    private mutating func twoDigits(_ v: Int) {
        p[0] = UInt8(truncatingIfNeeded: v / 10) &+ UInt8(ascii: "0")
        p[1] = UInt8(truncatingIfNeeded: v % 10) &+ UInt8(ascii: "0")
        p += 2
    }

    /// The last minute printed, `yyyy-mm-ddThh:mm:`: consecutive fixes nearly always share it.
    struct DateCache: Sendable {
        fileprivate var minute = Int64.min
        fileprivate var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
    }

    private mutating func timestamp(_ t: Timestamp, _ cache: inout DateCache) {
        let ms = t.millisecondsSince1970
        var minute = ms / 60_000
        var msOfMinute = ms % 60_000
        if msOfMinute < 0 {
            msOfMinute += 60_000
            minute -= 1
        }
        if minute == cache.minute {
            withUnsafeBytes(of: &cache.text) { p.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 17) }
            p += 17
        } else {
            let prefix = p
            var day = minute / 1_440
            var minuteOfDay = minute % 1_440
            if minuteOfDay < 0 {
                minuteOfDay += 1_440
                day -= 1
            }
            let (year, month, dayOfMonth) = Timestamp.civilFromDays(Int(day))
            unsigned(UInt64(max(year, 0)), minimumDigits: 4)
            byte(UInt8(ascii: "-"))
            twoDigits(month)
            byte(UInt8(ascii: "-"))
            twoDigits(dayOfMonth)
            byte(UInt8(ascii: "T"))
            twoDigits(Int(minuteOfDay / 60))
            byte(UInt8(ascii: ":"))
            twoDigits(Int(minuteOfDay % 60))
            byte(UInt8(ascii: ":"))
            if p - prefix == 17 {   // four-digit years only
                withUnsafeMutableBytes(of: &cache.text) { $0.baseAddress!.copyMemory(from: prefix, byteCount: 17) }
                cache.minute = minute
            }
        }
        let ofMinute = Int(msOfMinute)
        twoDigits(ofMinute / 1000)
        byte(UInt8(ascii: "."))
        byte(UInt8(truncatingIfNeeded: ofMinute % 1000 / 100) &+ UInt8(ascii: "0"))
        twoDigits(ofMinute % 100)
        byte(UInt8(ascii: "Z"))
    }
}
