import GeoWakeCore
import Testing
@testable import Traces

/// The one-pass scan of common lines (`NMEALineScan`) against the general framing: a trace read whole takes the
/// scan for its common lines, the same trace fed one byte at a time never can (no line feed is in the chunk
/// with its `$`). Fixes and counts must be the same.
@Suite struct NMEALineScanTests {
    static func expectSameBothWays(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let whole = readNMEA(text)
        let byteByByte = readNMEA(text, chunk: 1)
        #expect(whole.fixes == byteByByte.fixes, sourceLocation: sourceLocation)
        #expect(whole.statistics == byteByByte.statistics, sourceLocation: sourceLocation)
    }

    static let rmc = sentence("GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A")
    static let gga = sentence("GPGGA,050000.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,")

    @Test func commonLinesGiveTheSameFixesAsTheGeneralFraming() {
        let text = Self.gga + Self.rmc + sentence("GPGST,050000.00,1.6,1.2,1.0,0.4,1.0,1.1,2.6")
            + sentence("GPGGA,050001.123,3356.12345,S,15112.5,W,1,05,1.2,-3.5,M,,M,,")
            + sentence("GPRMC,050001.123,A,3356.12345,S,15112.5,W,12.5,359.9,,,,A")
        let read = readNMEA(text)
        #expect(read.fixes.count == 2)
        #expect(read.fixes.last?.coordinate.latitude ?? 0 < 0 && read.fixes.last?.coordinate.longitude ?? 0 < 0)
        #expect(read.fixes.last?.time == timestamp(2024, 6, 3, 5, 0, 1, 123))
        Self.expectSameBothWays(text)
    }

    @Test("Malformed and edge lines are counted and read the same through the scan and the general framing", arguments: [
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A*00\r\n",   // bad checksum
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A*\r\n",     // star without digits
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A*7\r\n",    // one digit
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A*7f\r\n",   // lower-case hex
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A*7F",       // no line end: finish reads it
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A*7F\n",     // LF only
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A\r\n",       // no checksum after checksummed ones
        "GPRMC,050000.00,A,5221.69318,N*01156.47967,E,0.000,,030624,,,A*7F\r\n",   // a star inside the body
        "GPRMC,050000.00,A,5221.69$GPGGA,050000.00,,,,,0,,,,,,,,*66\r\n",          // restarted mid-line
        "GPRMC,050000.00,A,5221.69318,N,01156.47967,E,0.000,,030624,,,A*7F$\r\n",  // a dollar after the checksum
        "*00\r\n", "\r\n", "$\r\n",
        "GPRMC," + String(repeating: "1", count: 260) + "*00\r\n",                  // over-long
        "GPRMC," + String(repeating: "1", count: 244) + "*00\r\n",                  // the star at the limit
        "GPRMC," + String(repeating: "1", count: 245) + "*00\r\n",                  // one past it
    ])
    func edgeLines(line: String) {
        Self.expectSameBothWays(Self.gga + Self.rmc + "$" + line + sentence("GPGGA,050002.00,5221.7,N,01156.4,E,1,13,0.89,30.8,M,39.6,M,,"))
    }

    @Test("Sentences with empty fields, no date, three-digit milliseconds or other hemispheres read the same both ways", arguments: [
        "GPGGA,,,,,,,,,,,,,,",
        "GPGGA,050003.00,,,,,1,,,,,,,,",
        "GPRMC,050003.00,A,5221.69318,N,01156.47967,E,,,,,,",
        "GPRMC,050003.456,A,5221.69318,S,01156.47967,W,1.0,90.0,030624,,,A",
        "GPRMC,050003.4567,V,5221.69318,S,01156.47967,W,1.0,90.0,030624,,,N",
        "GPGGA,050003.999,5221.69318,S,01156.47967,W,1,13,0.89,30.8,M,39.6,M,,",
        "GPGGA,050003.00,5221.69318,X,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",
        "GPZDA,050003.00,03,06,2024,00,00",
        "GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A",
        "GNGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1",
        "gpgga,050003.00,5221.69318,N,01156.47967,E,1,13,0.89,30.8,M,39.6,M,,",
        "PUBX,00,050003.00",
    ])
    func edgeSentences(body: String) {
        Self.expectSameBothWays(sentence(body) + Self.rmc + sentence(body) + Self.gga + sentence(body))
    }
}
