import Testing
@testable import Traces

@Suite struct TraceFormatTests {
    static func detect(_ text: String) -> TraceFormat? {
        Array(text.utf8).withUnsafeBytes { TraceFormat.detect($0) }
    }

    @Test func firstMeaningfulByteDecides() {
        #expect(Self.detect("$GPGGA,1") == .nmea)
        #expect(Self.detect("$$GNGSA,A") == .nmea)
        #expect(Self.detect("!AIVDM,1") == .nmea)
        #expect(Self.detect("# Name: GlobalSat\n# Date\n$GPRMC") == .nmea)
        #expect(Self.detect("\u{FEFF}  \r\n{\"class\":\"VERSION\"}") == .gpsdJSON)
        #expect(Self.detect("<?xml version=\"1.0\"?>\n<gpx") == .gpx)
    }

    @Test func noiseBeforeASentenceIsStillNMEA() {
        #expect(Self.detect("\u{1}\u{2}xq7$GNRMC,120213.000,A") == .nmea)
    }

    @Test func undecidedPrefixesAreNil() {
        #expect(Self.detect("") == nil)
        #expect(Self.detect("# only a comment so far") == nil)
        #expect(Self.detect("lat,lon,time\n52.5,13.4,0") == nil)
    }
}
