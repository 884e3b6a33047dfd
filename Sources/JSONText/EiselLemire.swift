/// Decimal to double with the Eisel-Lemire algorithm (Lemire, "Number Parsing at a Gigabyte per Second", 2021), as
/// Go's strconv does it: a 64-bit decimal mantissa times a 128-bit power of ten, correctly rounded, or nil in the
/// rare cases it cannot tell (then strtod decides). Coordinates printed with 16 or 17 digits, which Clinger's fast
/// path cannot take, went to strtod before: a third of a restart's parsing.
enum EiselLemire {
    /// `mantissa` × 10^`exponent`, nil when the product cannot be rounded with certainty here (or is subnormal,
    /// infinite or out of the table's range).
    static func double(mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard exponent >= smallestExponent, exponent <= largestExponent else { return nil }
        let power = powersOfTen[exponent - smallestExponent]
        let leadingZeros = mantissa.leadingZeroBitCount
        let normalized = mantissa << leadingZeros
        // 217706 / 2^16 is log2(10): the binary exponent of the power of ten's mantissa.
        var binaryExponent = UInt64(bitPattern: Int64((217706 &* exponent) >> 16 + 64 + 1023)) &- UInt64(leadingZeros)

        var (high, low) = normalized.multipliedFullWidth(by: power.high)
        // The low bits the rounding needs may be wrong by the truncated part of the power: take its low half too.
        if high & 0x1FF == 0x1FF && low &+ normalized < normalized {
            let (lowHigh, lowLow) = normalized.multipliedFullWidth(by: power.low)
            var mergedHigh = high
            let mergedLow = low &+ lowHigh
            if mergedLow < low { mergedHigh &+= 1 }
            if mergedHigh & 0x1FF == 0x1FF && mergedLow &+ 1 == 0 && lowLow &+ normalized < normalized { return nil }
            (high, low) = (mergedHigh, mergedLow)
        }
        let topBit = high >> 63
        var result = high >> (topBit + 9)
        binaryExponent &-= 1 ^ topBit
        // Exactly halfway between two doubles: round-half-even needs the exact product.
        if low == 0 && high & 0x1FF == 0 && result & 3 == 1 { return nil }
        result &+= result & 1
        result >>= 1
        if result >> 53 > 0 {
            result >>= 1
            binaryExponent &+= 1
        }
        // Zero (or wrapped below it) is subnormal, 0x7FF and up infinite: strtod's.
        guard binaryExponent &- 1 < 0x7FF - 1 else { return nil }
        let bits = binaryExponent << 52 | result & 0x000F_FFFF_FFFF_FFFF | (negative ? 1 << 63 : 0)
        return Double(bitPattern: bits)
    }
}
