import CLibGPS
import GeoWakeCore
@testable import GPSD
import Testing
import TestSupport
import Traces

/// One gpsd report read the two ways geowake reads them: unpacked by libgps (`gps_unpack`, which `gps_read` runs on
/// each line from gpsd) and mapped as the live source maps it, and read from a gpsd JSON file as `replay` reads it.
@Suite struct LiveAndFileFixParityTests {
    /// The fixes the live source makes of these lines: libgps unpacks each, `GPSDConnection` maps what it unpacked.
    static func live(_ lines: [String]) -> [Fix] {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
        var satellites: Int?
        var fixes: [Fix] = []
        for line in lines {
            var text = Array(line.utf8CString)
            guard gps_unpack(&text, data) == 0 else { continue }
            if case .position(let fix?) = GPSDConnection.report(line, unpacked: data.pointee, satellitesUsed: &satellites) {
                fixes.append(fix)
            }
        }
        return fixes
    }

    /// The fixes `replay` reads from a file of these lines.
    static func file(_ lines: [String]) -> [Fix] {
        var reader = GPSDJSONReader()
        var fixes: [Fix] = []
        Array(lines.map { $0 + "\n" }.joined().utf8).withUnsafeBytes { reader.consume($0) { fixes.append($0) } }
        reader.finish { fixes.append($0) }
        return fixes
    }

    @Test func everyReportOfARealGPSDCaptureGivesTheSameFixesLiveAndFromTheFile() throws {
        let text = try String(contentsOfFile: packageRoot + "/traces/berlin-drive-start.gpsd.json", encoding: .utf8)
        // Split at the line feed alone: gpsd ends its lines with CR LF, which a String keeps as one Character.
        let lines = text.utf8.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        let live = Self.live(lines)
        let file = Self.file(lines)
        try #require(live.count > 10)
        #expect(live.count == file.count)
        // The first difference alone: a diff of two long arrays is slow to print.
        if let k = (0..<min(live.count, file.count)).first(where: { live[$0] != file[$0] }) { Issue.record("fix \(k): live \(live[k]), file \(file[k])") }
    }

    @Test("An edge report gives the same fix, or none, live and from the file", arguments: [
        #"{"class":"TPV","mode":3,"time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4,"track":360.0,"speed":1.5}"#,
        #"{"class":"TPV","mode":3,"time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4,"track":400.0,"speed":2000.0,"altMSL":200000.0}"#,
        #"{"class":"TPV","mode":3,"time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4,"speed":-1.0,"altMSL":-2000.0}"#,
        #"{"class":"TPV","mode":3,"time":"2024-06-03T23:50:00.9996Z","lat":52.5,"lon":13.4,"alt":35.3}"#,
        #"{"class":"TPV","mode":2,"time":"2024-06-03T23:50:01.123456789Z","lat":-37.78,"lon":175.31,"epx":3.0,"epy":4.0}"#,
        #"{"class":"TPV","mode":2,"time":"2024-06-03T23:50:02Z","lat":52.5,"lon":13.4,"eph":19.6,"epx":3.0,"epy":4.0}"#,
        #"{"class":"TPV","mode":3,"lat":52.5,"lon":13.4}"#,
        #"{"class":"TPV","mode":1,"time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4}"#,
        #"{"class":"TPV","mode":3,"time":"2024-06-03T23:50:00.000Z","lat":91.0,"lon":13.4}"#,
        #"{"class":"TPV","mode":3,"time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":-180.0}"#,
    ])
    func edgeReportsGiveTheSameFixLiveAndFromTheFile(line: String) {
        #expect(Self.live([line]) == Self.file([line]))
    }
}

extension LiveAndFileFixParityTests {
    /// Each case: SKY reports between TPVs, and the count the TPVs after them carry (libgps counts the list's
    /// satellites marked used, ignores `uSat` alone, and a SKY without a list leaves none).
    @Test("A SKY's count of satellites used reaches the TPVs after it, live and from the file", arguments: [
        ([#"{"class":"SKY","hdop":0.9,"nSat":9,"uSat":7}"#], nil),
        ([#"{"class":"SKY","satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":true}]}"#], 2),
        ([#"{"class":"SKY","nSat":3,"uSat":2,"satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":true}]}"#], 2),
        ([#"{"class":"SKY","uSat":7}"#, #"{"class":"SKY","uSat":0}"#], nil),
        ([#"{"class":"SKY","satellites":[{"PRN":1,"used":true},{"PRN":3,"used":true}]}"#, #"{"class":"SKY","hdop":1.1}"#], nil),
        ([#"{"class":"SKY","satellites":[{"PRN":1,"used":true}]}"#, #"{"class":"SKY","satellites":[{"PRN":1,"used":false}]}"#], nil),
        ([#"{"class":"SKY","satellites":[]}"#], nil),
    ] as [([String], Int?)])
    func skyCountsReachTheNextFixes(sky: [String], used: Int?) {
        let tpv = #"{"class":"TPV","mode":3,"time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4}"#
        let lines = [tpv] + sky + [tpv, tpv]
        #expect(Self.live(lines) == Self.file(lines))
        #expect(Self.file(lines).map(\.satellites) == [nil, used, used])
    }
}
