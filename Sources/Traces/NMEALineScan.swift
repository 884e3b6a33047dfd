import CIntrinsics

/// The parts of the common NMEA line, `$` body `*` checksum line end, found in one SSE2 pass (`nmea_scan_line`):
/// the `*`, the line feed and the checksum. Lines it does not vouch for go the general way
/// (`NMEAReader.processLine`).
struct NMEALineScan {
    /// Offsets from the body (just after `$`) of the first `*` and of the line feed.
    let star: Int
    let lineFeed: Int
    /// The XOR of the body's bytes, to compare with the hex digits after the `*`.
    let checksum: UInt8

    /// Bit k set when body byte k is a comma, for k below `star` (at most `commaLimit`): eight bytes a step, each
    /// loaded from within the body. Wanted only when a line is read field by field, so not in the scan.
    func commas(_ body: UnsafePointer<UInt8>) -> (low: UInt64, high: UInt64) {
        var bits: (low: UInt64, high: UInt64) = (0, 0)
        let line = UnsafeRawPointer(body)
        func add(_ offset: Int) {
            let word = UInt64(littleEndian: line.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let t = word ^ 0x2C2C_2C2C_2C2C_2C2C   // a comma becomes a zero byte
            let zeros = ~(((t & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | t) & 0x8080_8080_8080_8080
            // The top bit of byte j to bit j, then to bit `offset + j`.
            let byte = UInt64(((zeros >> 7) &* 0x0102_0408_1020_4080) >> 56)
            if offset < 64 { bits.low |= byte << UInt64(offset) }
            if offset > 56 { bits.high |= offset >= 64 ? byte << UInt64(offset - 64) : byte >> UInt64(64 - offset) }
        }
        var offset = 0
        while offset + 8 <= star {
            add(offset)
            offset += 8
        }
        if offset < star {
            if star >= 8 {
                add(star - 8)
            } else {
                for k in offset..<star where body[k] == UInt8(ascii: ",") { bits.low |= 1 << UInt64(k) }
            }
        }
        return bits
    }
    /// The longest body the common-line readers take (`NMEACommonFields`, `NMEALineShape`).
    static let commaLimit = 128

    /// For a line whose `$` is just before `body`: its parts, when the first `*` (at most `maximumBody` bytes in)
    /// comes before any other `$` or line feed, and a line feed follows it before any `$`.
    @inline(__always)
    init?(_ body: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, maximumBody: Int) {
        var scan = nmea_line_scan()
        guard nmea_scan_line(body, end - body, maximumBody, &scan) != 0 else { return nil }
        star = scan.star
        lineFeed = scan.line_feed
        checksum = scan.checksum
    }
}
