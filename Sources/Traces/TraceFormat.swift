/// The trace formats geowake reads, told apart by content rather than by file name.
public enum TraceFormat: String, Sendable, CaseIterable {
    case nmea
    case gpsdJSON
    case gpx

    /// Decides from the first bytes of a trace: skips a byte-order mark, blank lines and `#` comments,
    /// then `<` is GPX, `{` is gpsd JSON, and `$` or `!` (or an NMEA sentence after some line noise, as
    /// a serial capture may start mid-sentence) is NMEA. Nil when the prefix does not tell, either
    /// because it is something else or because it is too short yet.
    public static func detect(_ prefix: UnsafeRawBufferPointer) -> TraceFormat? {
        let bytes = prefix.bindMemory(to: UInt8.self)
        var i = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                i += 1
            case UInt8(ascii: "#"):
                while i < bytes.count && bytes[i] != UInt8(ascii: "\n") { i += 1 }
            case UInt8(ascii: "<"): return .gpx
            case UInt8(ascii: "{"): return .gpsdJSON
            case UInt8(ascii: "$"), UInt8(ascii: "!"): return .nmea
            default:
                return containsSentenceStart(bytes, from: i) ? .nmea : nil
            }
        }
        return nil
    }

    /// `$` followed by a five-letter address and a comma, e.g. `$GPGGA,`.
    private static func containsSentenceStart(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var i = start
        while i + 7 <= bytes.count {
            if bytes[i] == UInt8(ascii: "$"),
               (1...5).allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[i + $0]) }),
               bytes[i + 6] == UInt8(ascii: ",") {
                return true
            }
            i += 1
        }
        return false
    }
}
