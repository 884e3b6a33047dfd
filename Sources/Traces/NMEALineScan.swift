/// Finds the parts of the common NMEA line, `$` body `*` checksum line end, in one pass eight bytes at a
/// time: finding the line feed, then a second `$`, then the `*`, each by its own `memchr`, was a tenth of
/// `geowake locate`'s time. Lines it does not vouch for go the general way (`NMEAReader.processLine`).
enum NMEALineScan {
    /// For a line whose `$` is just before `body`: the offsets from `body` of the first `*` (at most
    /// `maximumBody`) and of the line feed, when the line has both, in that order, and no other `$`.
    @inline(__always)
    static func commonLine(_ body: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, maximumBody: Int)
        -> (star: Int, lineFeed: Int)? {
        let raw = UnsafeRawPointer(body)
        let available = end - body
        var star = -1
        var i = 0
        while i < available {
            var k: Int
            if i + 8 <= available {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let found = matches(word, UInt8(ascii: "$")) | matches(word, UInt8(ascii: "\n"))
                    | (star < 0 ? matches(word, UInt8(ascii: "*")) : 0)
                if found == 0 {
                    i += 8
                    if star < 0 && i > maximumBody { return nil }
                    continue
                }
                // The lowest flagged byte is a true match: a false flag needs a true one below it.
                k = i + found.trailingZeroBitCount / 8
            } else {
                k = i
                let c = body[k]
                guard c == UInt8(ascii: "$") || c == UInt8(ascii: "\n") || (star < 0 && c == UInt8(ascii: "*")) else {
                    i += 1
                    continue
                }
            }
            switch body[k] {
            case UInt8(ascii: "*"):
                guard k <= maximumBody else { return nil }
                star = k
            case UInt8(ascii: "\n"):
                return star >= 0 ? (star, k) : nil
            default:
                return nil   // another `$`: a receiver restarted mid-line
            }
            i = k + 1
        }
        return nil
    }

    /// The high bit of each byte of `word` equal to `byte`, and possibly of bytes above such a byte.
    @inline(__always)
    private static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }
}
