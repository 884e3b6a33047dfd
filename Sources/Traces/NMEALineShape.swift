/// The shape of a common line: its length, its bytes other than digits, and where its digits are. Two lines of one
/// shape have the same fields (the commas are among the non-digits), each of the same shape (signs, points,
/// hemispheres, number of digits), so a line of the shape of one already read needs only its digits decoded.
/// Receivers write fixed-width fields: nearly every GGA after the first has the shape of the one before.
struct NMEALineShape: Sendable {
    private typealias Words = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                               UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private static let none: Words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var star = -1
    /// The body's words at offsets 0, 8, … below the star, then the word ending at the star.
    private var words = NMEALineShape.none
    /// `SWARDigits.nonDigits` of each word: the top bit of each byte that is not a digit.
    private var nonDigits = NMEALineShape.none

    /// Whether the body (`star` bytes, at least 8, at most `NMEALineScan.commaLimit`) has this shape.
    @inline(__always) mutating func matches(_ body: UnsafePointer<UInt8>, star: Int) -> Bool {
        guard star == self.star else { return false }
        let line = UnsafeRawPointer(body)
        return withUnsafeBytes(of: &words) { words in
            withUnsafeBytes(of: &nonDigits) { nonDigits in
                var differences: UInt64 = 0
                @inline(__always) func compare(_ offset: Int, _ k: Int) {
                    let word = UInt64(littleEndian: line.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    let expectedNonDigits = nonDigits.load(fromByteOffset: 8 &* k, as: UInt64.self)
                    // The non-digit bytes whole (each top bit spread over its byte), the digits by place only.
                    let kept = (expectedNonDigits >> 7) &* 0xFF
                    differences |= (SWARDigits.nonDigits(word, first: 8) ^ expectedNonDigits)
                        | ((word ^ words.load(fromByteOffset: 8 &* k, as: UInt64.self)) & kept)
                }
                var offset = 0, k = 0
                while offset &+ 8 <= star {
                    compare(offset, k)
                    offset &+= 8
                    k &+= 1
                }
                if offset < star { compare(star &- 8, k) }
                return differences == 0
            }
        }
    }

    /// Takes the shape of a body the field reader vouched for.
    mutating func learn(_ body: UnsafePointer<UInt8>, star: Int) {
        guard star >= 8, star <= NMEALineScan.commaLimit else { return }
        let line = UnsafeRawPointer(body)
        withUnsafeMutableBytes(of: &words) { words in
            withUnsafeMutableBytes(of: &nonDigits) { nonDigits in
                func take(_ offset: Int, _ k: Int) {
                    let word = UInt64(littleEndian: line.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    words.storeBytes(of: word, toByteOffset: 8 * k, as: UInt64.self)
                    nonDigits.storeBytes(of: SWARDigits.nonDigits(word, first: 8), toByteOffset: 8 * k, as: UInt64.self)
                }
                var offset = 0, k = 0
                while offset + 8 <= star {
                    take(offset, k)
                    offset += 8
                    k += 1
                }
                if offset < star { take(star - 8, k) }
            }
        }
        self.star = star
    }

    mutating func forget() { star = -1 }
}

/// Where a number's digits are in a line of a known shape: `whole` digits from `start`, then a point and
/// `fraction` digits when `fraction > 0` (a point without fraction digits adds nothing). No digits at all is an empty field.
struct NMEADigitsShape: Sendable {
    var start = 0
    var whole = 0
    var fraction = 0
    var negative = false

    var isEmpty: Bool { whole == 0 && fraction == 0 }

    /// The shape of a field the field reader read, `count` bytes at `start`; nil when a digit run is over 8
    /// or a load of 8 bytes at either run would pass `limit` (a line of this shape has at least that many bytes).
    init?(_ body: UnsafePointer<UInt8>, start: Int, count: Int, limit: Int) {
        var p = start
        let end = start + count
        if p < end && (body[p] == UInt8(ascii: "-") || body[p] == UInt8(ascii: "+")) {
            negative = body[p] == UInt8(ascii: "-")
            p += 1
        }
        self.start = p
        while p < end && body[p] != UInt8(ascii: ".") { p += 1 }
        whole = p - self.start
        fraction = p < end ? end - p - 1 : 0
        guard whole <= 8, fraction <= 8, self.start + 8 <= limit, self.start + whole + 9 <= limit else { return nil }
    }

    init() {}

    /// The digits as one integer and the number of them after the point.
    @inline(__always) func mantissa(_ body: UnsafePointer<UInt8>) -> Int64 {
        let line = UnsafeRawPointer(body)
        let wholeDigits = SWARDigits.value(UInt64(littleEndian: line.loadUnaligned(fromByteOffset: start, as: UInt64.self)),
                                           digits: whole)
        guard fraction > 0 else { return Int64(wholeDigits) }
        let fractionWord = UInt64(littleEndian: line.loadUnaligned(fromByteOffset: start &+ whole &+ 1, as: UInt64.self))
        return Int64(wholeDigits &* SWARDigits.powersOfTen[fraction] &+ SWARDigits.value(fractionWord, digits: fraction))
    }
}
