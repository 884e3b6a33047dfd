import GeoWakeCore
import Testing
@testable import Traces

@Suite struct TraceReaderDetectionTests {
    /// Feeds `text` one byte at a time, as a slow pipe would.
    static func bytewise(_ text: String) throws -> [Fix] {
        var reader = TraceReader()
        var fixes: [Fix] = []
        for byte in Array(text.utf8) {
            try [byte].withUnsafeBytes { try reader.consume($0) { fixes.append($0) } }
        }
        try reader.finish { fixes.append($0) }
        return fixes
    }

    @Test func formatArrivingByteByByteIsDetectedAndNothingIsLost() throws {
        let header = String(repeating: "# a long comment header, as gpsd's regression logs have\n", count: 40)
        let nmea = header + sentence("GPRMC,030719.000,A,3747.0873,S,17518.8938,E,0.69,181.39,311214,,,A")
        #expect(try Self.bytewise(nmea).count == 1)
        #expect(try Self.bytewise(String(nmea.dropLast())).count == 1)   // detected only at finish
        let json = #"{"class":"TPV","mode":2,"lat":1.5,"lon":2.5}"#
        #expect(try Self.bytewise(json).count == 1)
    }
}
