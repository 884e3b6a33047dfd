import GeoWakeCore
import Foundation
import Testing
@testable import Traces

@Suite struct GPSDJSONReaderTests {
    static let tpv = #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-06-03T23:50:01.000Z","ept":0.005,"lat":52.550400167,"lon":13.403450000,"altHAE":74.1000,"altMSL":34.5000,"alt":34.5000,"speed":1.5,"track":271.25,"epx":3.0,"epy":4.0}"#

    @Test func tpvBecomesAFix() throws {
        let (fixes, statistics) = try readTrace(Self.tpv + "\n")
        let fix = try #require(fixes.first)
        #expect(fixes.count == 1 && statistics.fixes == 1 && statistics.sentences == 1)
        #expect(fix.time == timestamp(2024, 6, 3, 23, 50, 1))
        #expect(fix.coordinate == Coordinate(latitude: 52.550400167, longitude: 13.40345))
        #expect(fix.altitudeMSL == 34.5 && fix.speed == 1.5 && fix.course == 271.25 && fix.mode == .threeD)
        #expect(abs(fix.horizontalAccuracy! - 5.0 / 1.96) < 1e-12)
    }

    @Test func oldNumericTimeIsRead() throws {
        let old = #"{"class":"TPV","tag":"RMC","device":"/dev/ttyUSB0","time":1270517264.240,"ept":0.005,"lat":40.0,"lon":-75.1,"mode":2}"#
        #expect(try readTrace(old).fixes.first?.time == timestamp(2010, 4, 6, 1, 27, 44, 240))
    }

    @Test func otherClassesAndNoFixReportsAreIgnored() throws {
        let lines = [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"SKY","device":"x","satellites":[{"PRN":5,"el":40.0,"used":true},{"PRN":7,"used":false}]}"#,
            #"{"class":"GST","time":"2024-06-03T23:50:00.000Z","rms":2.2,"lat":1.3,"lon":1.4,"alt":3.6}"#,
            #"{"class":"TPV","device":"x","mode":1,"time":"2024-06-03T23:50:00.000Z"}"#,
            #"{"class":"TPV","device":"x","mode":3,"lat":52.5,"lon":13.4,"alt":33.0,"track":360.0}"#,
        ]
        let (fixes, statistics) = try readTrace(lines.joined(separator: "\n"))
        #expect(fixes.count == 1)
        #expect(fixes.first?.time == nil && fixes.first?.altitudeMSL == 33.0 && fixes.first?.course == 0)
        #expect(statistics.sentences == 5 && statistics.malformed == 0)
    }

    @Test func brokenLinesAreCountedAsMalformed() throws {
        let lines = [#"{"class":"TPV","mode":3,"lat":52.5,"lon":"#, #"{"class":"TPV","mode":3,"time":"yesterday","lat":1,"lon":2}"#,
                     "not json", #"{"class":"TPV","mode":3,"lat":52.5,"lon":13.4} trailing"#, Self.tpv]
        let (fixes, statistics) = try readTrace(lines.joined(separator: "\r\n"), format: .gpsdJSON)
        #expect(fixes.count == 1 && statistics.malformed == 4)
    }

    @Test func escapedKeysAndStringsAreDecoded() throws {
        // The key's escapes are decoded first, then the value's into the same scratch buffer.
        let line = #"{"cl\u0061ss":"T\u0050V","mode":3,"lat":52.5,"lon":13.4,"d\u0065vice":"\/dev\/ttyS0"}"#
        let (fixes, statistics) = try readTrace(line, format: .gpsdJSON)
        #expect(fixes.count == 1 && statistics.malformed == 0)
    }

    @Test func nonJSONNumbersMakeTheLineMalformed() throws {
        let lines = [#"{"class":"TPV","mode":3,"lat":NaN,"lon":13.4}"#, #"{"class":"TPV","mode":3,"lat":-Infinity,"lon":13.4}"#,
                     #"{"class":"TPV","mode":3,"lat":1e999,"lon":13.4}"#, #"{"class":"TPV","mode":3,"lat":01,"lon":13.4}"#]
        let (fixes, statistics) = try readTrace(lines.joined(separator: "\n"), format: .gpsdJSON)
        #expect(fixes.isEmpty && statistics.malformed == 4)
    }

    @Test func realGpspipeOutputMatchesTheNMEAItCameFrom() throws {
        var fromNMEA: [Int64: Fix] = [:]
        _ = try TraceFile.read(Paths.traces + "/berlin-drive.nmea") { fromNMEA[$0.time!.millisecondsSince1970] = $0 }
        var compared = 0
        let statistics = try TraceFile.read(Paths.traces + "/berlin-drive-start.gpsd.json") { tpv in
            guard let time = tpv.time else { return }
            let fix = try #require(fromNMEA[time.millisecondsSince1970])
            #expect(abs(fix.coordinate.latitude - tpv.coordinate.latitude) < 1e-9)
            #expect(abs(fix.coordinate.longitude - tpv.coordinate.longitude) < 1e-9)
            #expect(fix.altitudeMSL == tpv.altitudeMSL)
            #expect(abs((fix.speed ?? -1) - (tpv.speed ?? -1)) < 0.001)
            #expect(fix.course == tpv.course)
            compared += 1
        }
        #expect(compared == 300)
        #expect(statistics.malformed == 0)
    }
}
