import CIntrinsics

/// The parts of the common NMEA line, `$` body `*` checksum line end, found in one SSE2 pass (`nmea_scan_line`):
/// the `*`, the line feed, the checksum and the commas. Lines it does not vouch for go the general way
/// (`NMEAReader.processLine`).
struct NMEALineScan {
    /// Offsets from the body (just after `$`) of the first `*` and of the line feed.
    let star: Int
    let lineFeed: Int
    /// The XOR of the body's bytes, to compare with the hex digits after the `*`.
    let checksum: UInt8
    /// Bit k set when body byte k is a comma, for k below `star`; complete only when `star <= commaLimit`.
    let commas: (low: UInt64, high: UInt64)
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
        commas = scan.commas
    }
}
