import CIntrinsics

/// Finds the parts of the common NMEA line, `$` body `*` checksum line end, with two SSE2 searches: finding
/// the line feed, then a second `$`, then the `*`, each by its own `memchr` call, was a tenth of `geowake
/// locate`'s time. Lines it does not vouch for go the general way (`NMEAReader.processLine`).
enum NMEALineScan {
    /// For a line whose `$` is just before `body`: the offsets from `body` of the first `*` (at most
    /// `maximumBody`) and of the line feed, when the line has both, in that order, and no other `$`.
    @inline(__always)
    static func commonLine(_ body: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, maximumBody: Int)
        -> (star: Int, lineFeed: Int)? {
        let available = end - body
        let star = first_of_three(body, available, UInt8(ascii: "*"), UInt8(ascii: "$"), UInt8(ascii: "\n"))
        guard star < available, star <= maximumBody, body[star] == UInt8(ascii: "*") else { return nil }
        let afterStar = body + star + 1
        let lineFeed = star + 1 + first_of_three(afterStar, available - star - 1, UInt8(ascii: "\n"), UInt8(ascii: "$"),
                                                 UInt8(ascii: "\n"))
        guard lineFeed < available, body[lineFeed] == UInt8(ascii: "\n") else { return nil }
        return (star, lineFeed)
    }
}
