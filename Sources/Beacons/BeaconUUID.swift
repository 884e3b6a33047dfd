/// A beacon's proximity UUID as a 128-bit value, so that regions written in any case match the same beacons.
public struct BeaconUUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The 16 bytes as sent over the air, most significant first.
    public init(bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
        var h: UInt64 = 0
        var l: UInt64 = 0
        for i in 0..<8 { h = h << 8 | UInt64(bytes[offset + i]) }
        for i in 8..<16 { l = l << 8 | UInt64(bytes[offset + i]) }
        self.init(high: h, low: l)
    }

    /// Parses 8-4-4-4-12 hexadecimal digits in any case; nil for anything else.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var h: UInt64 = 0
        var l: UInt64 = 0
        var digits = 0
        for (i, b) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            if digits < 16 { h = h << 4 | UInt64(value) } else { l = l << 4 | UInt64(value) }
            digits += 1
        }
        self.init(high: h, low: l)
    }

    public static func < (a: BeaconUUID, b: BeaconUUID) -> Bool {
        (a.high, a.low) < (b.high, b.low)
    }

    /// Lowercase 8-4-4-4-12, as the contract prints it.
    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(36)
        let hex = Array("0123456789abcdef".utf8)
        for i in 0..<32 {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append(UInt8(ascii: "-")) }
            let word = i < 16 ? high : low
            let shift = UInt64(60 - 4 * (i % 16))
            out.append(hex[Int(word >> shift & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
