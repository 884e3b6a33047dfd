/// The fields of a common line (`NMEALineScan`), found from its comma bits and decoded eight bytes at a time.
///
/// It decodes exactly what `NMEAFields` decodes, to the same values, for the shapes receivers send
/// (`hhmmss.ss`, `ddmm.mmmmm`, numbers of up to eight characters); at anything else (a field missing, malformed,
/// out of range or of another shape) it stops vouching, and the sentence is read again the general way, which
/// decides what it is. Byte by byte, with a check for the comma at every byte, the general reader cost about
/// 1,500 instructions a fix.
struct NMEACommonFields {
    private let body: UnsafePointer<UInt8>
    /// The commas not yet passed.
    private var commas: (low: UInt64, high: UInt64)
    private let star: Int
    /// An eight-byte load at offset `o` stays inside the line (which ends at its line feed) when `o + 8 <= loadLimit`.
    private let loadLimit: Int
    private var next = 6
    private var exhausted = false
    private var start = 0
    private var count = 0
    /// False once a field was met that this reader does not decode as `NMEAFields` would.
    private(set) var isVouched = true

    /// `body` starts with a five-letter address and a comma, checked by the caller, and `line.star` is at most
    /// `NMEALineScan.commaLimit`, so its comma bits are complete.
    init(_ body: UnsafePointer<UInt8>, _ line: NMEALineScan) {
        self.body = body
        star = line.star
        loadLimit = line.lineFeed + 1
        commas = line.commas(body)
        commas.low &= commas.low &- 1   // the address's
    }

    @inline(__always) private mutating func advance() -> Bool {
        guard !exhausted else {
            isVouched = false
            return false
        }
        start = next
        let end: Int
        if commas.low != 0 {
            end = commas.low.trailingZeroBitCount
            commas.low &= commas.low &- 1
        } else if commas.high != 0 {
            end = 64 &+ commas.high.trailingZeroBitCount
            commas.high &= commas.high &- 1
        } else {
            end = star
            exhausted = true
        }
        count = end &- start
        next = end &+ 1
        return true
    }

    @inline(__always) private mutating func refuse<T>() -> T? {
        refuseField()
        return nil
    }

    @inline(__always) mutating func refuseField() { isVouched = false }

    /// The eight bytes at `offset`, the first in the lowest byte.
    @inline(__always) private func load(_ offset: Int) -> UInt64? {
        guard offset &+ 8 <= loadLimit else { return nil }
        return UInt64(littleEndian: UnsafeRawPointer(body + offset).loadUnaligned(as: UInt64.self))
    }

    var hasMoreFields: Bool { !exhausted }

    /// The next field's offset and length, nil past the last.
    mutating func field() -> (start: Int, count: Int)? {
        guard advance() else { return nil }
        return (start, count)
    }

    @inline(__always) mutating func skipOptional(_ fields: Int) {
        for _ in 0..<fields where !exhausted { _ = advance() }
    }

    /// The first byte of an optional indicator field (FAA mode), nil when it is empty.
    @inline(__always) mutating func first() -> UInt8? {
        guard advance(), count > 0 else { return nil }
        return body[start]
    }

    @inline(__always) mutating func character() -> UInt8? {
        guard advance(), count > 0 else { return nil }
        guard count == 1 else { return refuse() }
        return body[start]
    }

    @inline(__always) mutating func integer(maximum: Int) -> Int? {
        guard advance(), count > 0 else { return nil }
        guard count <= 8, let word = load(start), SWARDigits.nonDigits(word, first: count) == 0 else { return refuse() }
        let value = Int(SWARDigits.value(word, digits: count))
        guard value <= maximum else { return refuse() }
        return value
    }

    /// A decimal of up to eight characters after its sign, with or without a point.
    @inline(__always) mutating func decimal(_ range: ClosedRange<Double>) -> Double? {
        guard advance(), count > 0 else { return nil }
        var p = start, n = count
        let sign = body[p]
        let negative = sign == UInt8(ascii: "-")
        if negative || sign == UInt8(ascii: "+") {
            p &+= 1
            n &-= 1
        }
        guard n >= 1, n <= 8, let word = load(p) else { return refuse() }
        let others = SWARDigits.nonDigits(word, first: n)
        var mantissa: UInt64
        var scale = 0
        if others == 0 {
            mantissa = SWARDigits.value(word, digits: n)
        } else {
            // One point and digits on at least one side of it.
            let point = others.trailingZeroBitCount >> 3
            guard n > 1, body[p &+ point] == UInt8(ascii: "."), others & (others &- 1) == 0 else { return refuse() }
            scale = n &- point &- 1
            mantissa = point > 0 ? SWARDigits.value(word, digits: point) : 0
            if scale > 0 {
                mantissa = mantissa &* SWARDigits.powersOfTen[scale]
                    &+ SWARDigits.value(word >> (8 &* UInt64(point &+ 1)), digits: scale)
            }
        }
        guard let value = NMEAFields.decimal(mantissa: Int64(mantissa), scale: scale, negative: negative, range) else {
            return refuse()
        }
        return value
    }

    /// `hhmmss` with a fraction of up to three digits, in milliseconds, through `memo` as the general reader's.
    @inline(__always) mutating func timeOfDay(_ memo: inout NMEAFieldMemo<Int32?>) -> Int32? {
        guard advance(), count > 0 else { return nil }
        if memo.matches(body + start, available: count) != nil, let time = memo.value { return time }
        guard count >= 6, count <= 10, let word = load(start), let fraction = load(start &+ 7),
              SWARDigits.nonDigits(word, first: 6) == 0 else { return refuse() }
        if count > 6 {
            guard word >> 48 & 0xFF == UInt64(UInt8(ascii: ".")),
                  SWARDigits.nonDigits(fraction, first: count &- 7) == 0 else { return refuse() }
        }
        guard let time = SWARDigits.timeOfDay(word, fraction, fractionDigits: max(count &- 7, 0)) else { return refuse() }
        memo.remember(body + start, count: count, time)
        return time
    }

    /// Latitude and longitude (four fields), through `memo` as the general reader's: an RMC repeats the position
    /// text of its epoch's GGA. Nil when all four are empty; one half without the other is refused.
    @inline(__always) mutating func position(_ memo: inout NMEAFieldMemo<NMEAPosition?>) -> NMEAPosition? {
        guard advance() else { return nil }
        let latitude = (start, count)
        guard advance() else { return nil }
        let north = (start, count)
        guard advance() else { return nil }
        let longitude = (start, count)
        guard advance() else { return nil }
        let text = body + latitude.0, length = start &+ count &- latitude.0
        if memo.matches(text, available: length) != nil, let position = memo.value { return position }
        let φ = angle(latitude, north, maximumDegrees: 90, NMEASentenceParser.north, NMEASentenceParser.south)
        let λ = angle(longitude, (start, count), maximumDegrees: 180, NMEASentenceParser.east, NMEASentenceParser.west)
        guard isVouched else { return nil }
        var position: NMEAPosition?
        if let φ, let λ {
            position = NMEAPosition(latitude: φ, longitude: λ)
        } else if φ != nil || λ != nil {
            return refuse()
        }
        memo.remember(text, count: length, position)
        return position
    }

    /// A latitude or longitude (`dddmm.mmmm`, one to six whole and one to eight fraction digits) and its hemisphere,
    /// each field given by its offset and length. Nil when both are empty.
    @inline(__always) private mutating func angle(_ field: (start: Int, count: Int), _ hemisphere: (start: Int, count: Int),
                                                  maximumDegrees: Int64, _ positive: UInt8, _ negative: UInt8) -> Double? {
        if field.count == 0 && hemisphere.count == 0 { return nil }
        let side = body[hemisphere.start]
        guard hemisphere.count == 1, side == positive || side == negative, let word = load(field.start) else { return refuse() }
        let wholeDigits = SWARDigits.nonDigits(word, first: 8).trailingZeroBitCount >> 3
        let fractionDigits = field.count &- wholeDigits &- 1
        guard wholeDigits >= 1, wholeDigits <= 6, fractionDigits >= 1, fractionDigits <= 8,
              body[field.start &+ wholeDigits] == UInt8(ascii: "."), let fractionWord = load(field.start &+ wholeDigits &+ 1),
              SWARDigits.nonDigits(fractionWord, first: fractionDigits) == 0 else { return refuse() }
        let whole = Int64(SWARDigits.value(word, digits: wholeDigits))
        let fraction = Int64(SWARDigits.value(fractionWord, digits: fractionDigits))
        guard let value = NMEAFields.degrees(whole: whole, fraction: fraction, fractionDigits: fractionDigits,
                                             maximumDegrees: maximumDegrees) else { return refuse() }
        return side == negative ? -value : value
    }

    /// RMC's `ddmmyy` as a day number, through `memo` as the general reader's.
    @inline(__always) mutating func date(_ memo: inout NMEAFieldMemo<Int?>, _ calendar: NMEACalendar) -> Int? {
        guard advance(), count > 0 else { return nil }
        if memo.matches(body + start, available: count) != nil, let day = memo.value { return day }
        guard count == 6, let word = load(start), SWARDigits.nonDigits(word, first: 6) == 0 else { return refuse() }
        let pairs = SWARDigits.pairs(word)
        let d = Int(pairs & 0xFF), m = Int(pairs >> 16 & 0xFF), y = Int(pairs >> 32 & 0xFF)
        guard (1...12).contains(m), d >= 1, d <= 31, let day = calendar.dayNumber((d, m, y)) else { return refuse() }
        memo.remember(body + start, count: count, day)
        return day
    }
}

/// Decimal digits eight ASCII bytes at a time in a `UInt64`, the first byte lowest (a little-endian load).
enum SWARDigits {
    static let zeros: UInt64 = 0x3030_3030_3030_3030
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    static let powersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// All bits of the first `n` bytes (0…8).
    @inline(__always) static func lowBytes(_ n: Int) -> UInt64 {
        n >= 8 ? ~0 : (1 << (8 &* UInt64(n))) &- 1
    }

    /// The top bit of each of the first `n` bytes that is not an ASCII digit: zero when all are digits. A byte
    /// is a digit when its XOR with `0` is below 10; the sum cannot carry into the next byte.
    @inline(__always) static func nonDigits(_ word: UInt64, first n: Int) -> UInt64 {
        let values = word ^ zeros
        return (((values & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | values) & highBits & lowBytes(n)
    }

    /// The number the first `digits` bytes (1…8, all digits) spell: shifted up so that the bytes before them
    /// read as leading zeros, then combined in pairs, fours and eights with three multiplications.
    @inline(__always) static func value(_ word: UInt64, digits: Int) -> UInt64 {
        var v: UInt64 = (word ^ zeros) << (64 &- 8 &* UInt64(digits))
        v = v &* 10 &+ (v >> 8)
        let hundreds: UInt64 = (v & 0x0000_00FF_0000_00FF) &* (100 + (1_000_000 << 32))
        let ones: UInt64 = ((v >> 16) & 0x0000_00FF_0000_00FF) &* (1 + (10_000 << 32))
        return (hundreds &+ ones) >> 32 & 0xFFFF_FFFF
    }

    /// Milliseconds into the day of the digits `hhmmss` in `word` and of the first `fractionDigits` (0…3) in
    /// `fraction`, the digits after the point (missing ones read as 0); nil past 23:59:60.
    @inline(__always) static func timeOfDay(_ word: UInt64, _ fraction: UInt64, fractionDigits: Int) -> Int32? {
        let digits = (fraction ^ zeros) & lowBytes(fractionDigits)
        let tenths: UInt64 = (digits & 0xFF) &* 100, hundredths: UInt64 = (digits >> 8 & 0xFF) &* 10
        let millis: UInt64 = tenths &+ hundredths &+ (digits >> 16 & 0xFF)
        let pairs = SWARDigits.pairs(word)
        let h: UInt64 = pairs & 0xFF, m: UInt64 = pairs >> 16 & 0xFF, s: UInt64 = pairs >> 32 & 0xFF
        guard h < 24, m < 60, s <= 60 else { return nil }
        let seconds: UInt64 = (h &* 60 &+ m) &* 60 &+ s
        return Int32(truncatingIfNeeded: seconds &* 1000 &+ millis)
    }

    /// Bytes 0, 2, 4 and 6 of the result hold the two-digit numbers of bytes 0–1, 2–3, 4–5 and 6–7.
    @inline(__always) static func pairs(_ word: UInt64) -> UInt64 {
        let values = word ^ zeros
        return values &* 10 &+ (values >> 8)
    }
}
