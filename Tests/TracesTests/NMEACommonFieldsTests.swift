import GeoWakeCore
import Testing
@testable import Traces
import TestSupport

/// The common-line reader (`NMEACommonFields`, eight bytes at a time) against the general one (`NMEAFields`, byte by
/// byte): where it vouches for a sentence it must read the same fix, and where it does not the general reader decides.
/// A trace read whole takes the common-line reader; the same trace fed one byte at a time never can.
@Suite struct NMEACommonFieldsTests {
    static func bothWays(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        NMEALineScanTests.expectSameBothWays(text, sourceLocation: sourceLocation)
    }

    /// Whether the common-line reader reads `body` (a GGA or RMC) itself rather than handing it to the general one.
    static func vouches(_ body: String) -> Bool {
        let line = Array(sentence(body).utf8.dropFirst())
        return line.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress!
            guard let scan = NMEALineScan(base, base + bytes.count, maximumBody: NMEASentenceParser.maximumBodyLength)
            else { return false }
            var parser = NMEASentenceParser()
            return parser.readCommon(base, scan) != nil
        }
    }

    static let gga = "GPGGA,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,"
    static let rmc = "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A"

    @Test func eightDigitsAtATimeSpellTheNumberOfEachPrefix() {
        var rng = SeededGenerator(seed: 0x5357_4152_6469_6769)
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in UInt8.random(in: UInt8(ascii: "0")...UInt8(ascii: "9"), using: &rng) }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            for digits in 1...8 {
                let expected = bytes.prefix(digits).reduce(UInt64(0)) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
                #expect(SWARDigits.value(word, digits: digits) == expected)
            }
        }
    }

    @Test func everyByteThatIsNotADigitIsFlagged() {
        var rng = SeededGenerator(seed: 0x6E6F_6E64_6967_6974)
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in
                Bool.random(using: &rng) ? UInt8.random(in: 0...255, using: &rng)
                    : UInt8.random(in: UInt8(ascii: "0")...UInt8(ascii: "9"), using: &rng)
            }
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let flagged = SWARDigits.nonDigits(word, first: 8)
            for k in 0..<8 {
                let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[k])
                #expect((flagged >> (8 * UInt64(k) + 7) & 1 == 0) == isDigit, "byte \(bytes[k])")
            }
            #expect(SWARDigits.nonDigits(word, first: 3) & ~SWARDigits.lowBytes(3) == 0)
        }
    }

    @Test("The shapes receivers send are read by the common-line reader", arguments: [
        gga, rmc,
        "GNGGA,235959.5,0000.0001,S,17959.99999999,W,9,99,999.9,-999.9,M,,M,,",
        "GPGGA,120000,9000.000,N,18000.0,E,1,4,1,+12,M,,M,,",
        "GPGGA,050000.123,5221.6,N,01156.4,E,0,,,,,,,,",
        "GPGGA,050000.,5221.6,N,01156.4,E,1,,,,,,,,",
        "GPGGA,,,,,,1,05,.5,7.,M,,M,,",
        "GPRMC,050000.00,V,,,,,,,,,,N",
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,",
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624",
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,",
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,1234.567,359.9,290224,001.1,W,D,V",
    ])
    func commonShapesAreVouchedFor(body: String) {
        #expect(Self.vouches(body))
        Self.bothWays(sentence(body) + sentence(Self.rmc) + sentence(body))
    }

    @Test("Shapes and errors the common-line reader leaves to the general reader read the same", arguments: [
        "GPGGA,050000.1234,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",      // four fraction digits
        "GPGGA,050000.00,5221.693181234,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",    // nine minute fraction digits
        "GPGGA,050000.00,5221,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",             // minutes without a point
        "GPGGA,050000.00,5221.69318,N,,,1,13,0.89,30.8,M,39.6,M,,",                    // half a position
        "GPGGA,050000.00,5221.69318,,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",         // no hemisphere
        "GPGGA,050000.00,5260.00000,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",        // 60 minutes
        "GPGGA,050000.00,9000.00001,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",        // past the pole
        "GPGGA,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,123456.78,M,39.6,M,,",   // altitude out of range
        "GPGGA,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,-12345678,M,39.6,M,,",   // eight digits, out of range
        "GPGGA,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,1.2.3,M,39.6,M,,",       // two points
        "GPGGA,050000.00,5221.69318,N,01156.47967,E,1,13,.,30.8,M,39.6,M,,",           // a point alone
        "GPGGA,050000.00,5221.69318,N,01156.47967,E,1,13,-,30.8,M,39.6,M,,",           // a sign alone
        "GPGGA,050000.00,5221.69318,N,01156.47967,E,12,13,0.89,30.8,M,39.6,M,,",       // quality 12
        "GPGGA,050000.00,5221.69318,N,01156.47967,E,1,123456789,0.89,30.8,M,39.6,M,,", // nine-digit count
        "GPGGA,050000.00,5221.69318,N,01156.47967,E,1,13,0.89",                        // fields missing
        "GPGGA,250000.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",        // hour 25
        "GPGGA,05000a.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",        // a letter in the time
        "GPGGA,050000.0a,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",        // a letter in the fraction
        "GPGGA,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,," + String(repeating: "9", count: 90),
        "GPRMC,050000.00,AA,5221.69318,N,01156.47967,E,0.000,,030624,,,A",              // two-letter status
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,310224,,,A",               // 31 February
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,0306245,,,A",              // seven-digit date
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,360.1,030624,,,A",          // course past 360
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,",                          // the date missing
        "GPRMC," + String(repeating: "1", count: 140) + ",A,5221.69318,N,01156.47967,E,0.000,,030624,,,A",
        "GpGGA,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",        // a lower-case address
        "GPGG1,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",        // a digit in the address
        "PXGGA,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",        // proprietary
        "GPGGAX,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",       // a six-letter address
        "GPGGA,", "GPRMC,A",                                                           // bodies under eight bytes
    ])
    func otherShapesAreLeftToTheGeneralReader(body: String) {
        #expect(!Self.vouches(body))
        Self.bothWays(sentence(Self.gga) + sentence(body) + sentence(Self.rmc) + sentence(body)
                      + sentence("GPGGA,050001.00,5221.7,N,01156.4,E,1,13,0.89,30.8,M,39.6,M,,"))
    }

    @Test("Framing errors around common sentences read the same", arguments: [
        "$" + rmc + "*00\r\n",                                           // bad checksum
        "$" + rmc + "*7f\r\n",                                           // lower-case hex
        "$" + rmc + "*7F",                                               // no line end
        "$GPRMC,050000.00,A,5221.69$" + gga + "*64\r\n",                 // a `$` mid-line
        "$" + rmc + "*7F$GPGGA,\r\n",                                    // a `$` after the checksum
        "$" + rmc + "\r\n",                                              // no checksum after checksummed lines
    ])
    func framingErrors(text: String) {
        Self.bothWays(sentence(Self.gga) + text + sentence(Self.rmc) + sentence(Self.gga) + text)
    }

    /// Random GGA and RMC sentences, each field mostly of a shape receivers send and sometimes broken, checksums
    /// correct: the common-line reader reads most of them, and every one the same as the general reader.
    @Test func randomSentencesReadTheSameBothWays() {
        var rng = SeededGenerator(seed: 0x636F_6D6D_6F6E_2121)
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) }) }
        func below(_ n: Int, width: Int) -> String {
            let text = String(Int.random(in: 0..<n, using: &rng))
            return String(repeating: "0", count: width - text.count) + text
        }
        /// One of `good` nine times in ten, else one of `odd`.
        func pick(_ good: [String], _ odd: [String]) -> String {
            (Int.random(in: 0..<10, using: &rng) > 0 ? good : odd).randomElement(using: &rng)!
        }
        var vouched = 0, total = 0
        for _ in 0..<200 {
            var text = ""
            for second in 0..<50 {
                let hhmmss = "0500\(10 + second % 50)"
                let time = pick([hhmmss, hhmmss + "." + digits(Int.random(in: 0...3, using: &rng))],
                                ["", hhmmss + "." + digits(4), "2\(digits(5))", digits(6) + "." + digits(2)])
                let latitude = pick(["\(below(90, width: 2))\(below(60, width: 2)).\(digits(Int.random(in: 1...8, using: &rng)))",
                                     "9000.0", "8959.9999"],
                                    ["", "\(digits(Int.random(in: 1...7, using: &rng))).\(digits(Int.random(in: 0...12, using: &rng)))",
                                     digits(4), "9000.01"])
                let longitude = pick(["\(below(180, width: 3))\(below(60, width: 2)).\(digits(Int.random(in: 1...8, using: &rng)))",
                                      "18000.00", "1.5"],
                                     ["", "18000.01", "\(digits(3))\(digits(2)).\(digits(9))"])
                let position = pick(["\(latitude),\(pick(["N", "S"], ["", "X"])),\(longitude),\(pick(["E", "W"], ["", "N"]))"],
                                    [",,,", "\(latitude),N,,"])
                let number = { pick(["", digits(1) + "." + digits(2), "+" + digits(3) + "." + digits(1), "+" + digits(2), "." + digits(1),
                                     digits(2) + "."], [digits(Int.random(in: 1...10, using: &rng)), "-" + digits(2), "1e3", "-", "."]) }
                let gga = "GPGGA,\(time),\(position),\(pick(["1", "0", ""], ["10"])),\(pick(["08", ""], ["100"])),"
                    + "\(number()),\(number()),M,,M,,"
                let rmc = "GNRMC,\(time),\(pick(["A", "V", "D", ""], ["AA"])),\(position),\(number()),\(number()),"
                    + pick(["030624", "", "311224"], ["290223", digits(6)]) + pick([",,,A", ",,,N", ",,", "", ",1.0,W,D,V"], [","])
                for body in [gga, rmc] where Bool.random(using: &rng) || total == 0 {
                    text += sentence(body)
                    total += 1
                    if Self.vouches(body) { vouched += 1 }
                }
            }
            Self.bothWays(text)
        }
        #expect(vouched > total / 4 && vouched < total)
    }

    /// Lines of one shape (fixed-width fields, as receivers write them) whose digits vary, some out of range (hour 24
    /// and more, minute 60, latitude past 90, speed past 2000 knots, 31 February, a quality of 10 to 99): those of
    /// the shape before are read from their digits alone (`NMEAGGAShape`, `NMEARMCShape`); every one reads as the general
    /// reader reads it.
    @Test func linesOfOneShapeWithAnyDigitsReadTheSameBothWays() {
        var rng = SeededGenerator(seed: 0x7368_6170_6573_2121)
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) }) }
        func likely(_ n: Int, _ typical: String) -> String { Int.random(in: 0..<8, using: &rng) == 0 ? digits(n) : typical }
        var text = ""
        var ggaShapes = Set<[Bool]>()
        for second in 0..<3_000 {
            let time = likely(2, "0\(second / 600)") + likely(2, String(10 + second / 60 % 50)) + likely(2, String(10 + second % 50))
                + "." + digits(2)
            let position = likely(2, "52") + likely(2, "2\(second % 10)") + "." + digits(5) + ",N,"
                + likely(3, "011") + likely(2, "5\(second % 10)") + "." + digits(5) + ",\(second % 7 == 0 ? "W" : "E")"
            let gga = "GPGGA,\(time),\(position),\(digits(1)),\(likely(2, "13")),\(digits(1)).\(digits(2)),"
                + "\(likely(1, "3"))\(digits(1)).\(digits(1)),M,39.6,M,,"
            let rmc = "GPRMC,\(time),A,\(position),\(likely(2, "0"))\(digits(1)).\(digits(3)),\(digits(2)).\(digits(1)),"
                + likely(6, "030624") + ",,,A"
            text += sentence(gga) + sentence(rmc)
            if second % 5 == 0 { text += sentence("GPGST,\(time),1.6,1.2,1.0,0.4,1.0,1.1,2.6") }
            ggaShapes.insert(gga.utf8.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        }
        #expect(ggaShapes.count < 5)
        let read = readNMEA(text)
        #expect(read.statistics.malformed > 100 && read.fixes.count > 1_000)
        Self.bothWays(text)
    }

    /// After one GGA, a second of its shape is read by the shape, to the values the field reader reads from it.
    @Test func theShapeOfOneGGAReadsTheNextAsTheFieldReaderDoes() throws {
        let first = Array(sentence("GPGGA,050000.00,5221.69318,S,01156.47967,W,1,13,0.89,-0.8,M,39.6,M,,").utf8.dropFirst())
        let second = Array(sentence("GPGGA,050001.50,3356.12345,S,15112.54321,W,2,07,1.25,-3.5,M,39.6,M,,").utf8.dropFirst())
        let other = Array(sentence("GPGGA,050001.50,3356.12345,S,15112.54321,W,2,07,1.25,-3.5,M,39.6,M,1.0,").utf8.dropFirst())
        var parser = NMEASentenceParser()
        func scan(_ line: [UInt8], _ body: (UnsafePointer<UInt8>, NMEALineScan) -> Void) throws {
            try line.withUnsafeBufferPointer { bytes in
                let base = bytes.baseAddress!
                body(base, try #require(NMEALineScan(base, base + bytes.count, maximumBody: NMEASentenceParser.maximumBodyLength)))
            }
        }
        try scan(first) { body, line in #expect(parser.readCommon(body, line) != nil) }
        var byShape: NMEAGGA?
        try scan(second) { body, line in byShape = parser.ggaShape.read(body, star: line.star, &parser.timeMemo, &parser.positionMemo) }
        try scan(other) { body, line in #expect(parser.ggaShape.read(body, star: line.star, &parser.timeMemo, &parser.positionMemo) == nil) }
        var fresh = NMEASentenceParser()
        var byFields: NMEAGGA?
        try scan(second) { body, line in
            if case .gga(let gga) = fresh.readCommon(body, line) { byFields = gga }
        }
        let shape = try #require(byShape), fields = try #require(byFields)
        #expect(shape.timeOfDay == fields.timeOfDay && shape.timeOfDay == 5 * 3_600_000 + 1_500)
        #expect(shape.position?.latitude == fields.position?.latitude && shape.position?.longitude == fields.position?.longitude)
        #expect(shape.position?.longitude ?? 0 < 0)
        #expect(shape.quality == 2 && shape.satellites == 7 && shape.hdop == 1.25 && shape.altitude == -3.5)
        #expect(fields.quality == 2 && fields.satellites == 7 && fields.hdop == 1.25 && fields.altitude == -3.5)
    }

    @Test func commaBitsAreTheBodysCommasForEveryLength() throws {
        var rng = SeededGenerator(seed: 0x636F_6D6D_6173_2121)
        for star in 6..<NMEALineScan.commaLimit {
            let body = (0..<star).map { _ in Bool.random(using: &rng) ? UInt8(ascii: ",") : UInt8(ascii: "7") }
            let line = body + Array("*00\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "$"), count: 160)
            try line.withUnsafeBufferPointer { bytes in
                let base = bytes.baseAddress!
                let scan = try #require(NMEALineScan(base, base + bytes.count, maximumBody: NMEASentenceParser.maximumBodyLength))
                let bits = scan.commas(base)
                for k in 0..<NMEALineScan.commaLimit {
                    let bit = k < 64 ? bits.low >> UInt64(k) & 1 : bits.high >> UInt64(k - 64) & 1
                    #expect((bit == 1) == (k < star && body[k] == UInt8(ascii: ",")), "star \(star), byte \(k)")
                }
            }
        }
    }
}
