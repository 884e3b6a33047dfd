import GeoWakeCore
import Foundation
import Testing
@testable import Traces

@Suite struct GPXReaderTests {
    static func gpx(_ points: String) -> String {
        #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            + points + "</trkseg></trk></gpx>\n"
    }

    @Test func trackPointsBecomeFixes() throws {
        let text = Self.gpx("""
            <trkpt lon='13.4' lat='52.52'><ele>34.5</ele><time>2024-06-03T23:50:01Z</time><sat>9</sat>
              <hdop>0.8</hdop><fix>3d</fix><extensions><gpxtpx:speed>1.5</gpxtpx:speed></extensions></trkpt>
            <trkpt lat="52.53" lon="13.41"/>
            <trkpt lat="52.54" lon="13.42"><time>2024-06-04T01:50:02.25+02:00</time><fix>none</fix></trkpt>
            """)
        let (fixes, statistics) = try readTrace(text)
        #expect(fixes.count == 2 && statistics.sentences == 3 && statistics.malformed == 0)
        let first = try #require(fixes.first)
        #expect(first.coordinate == Coordinate(latitude: 52.52, longitude: 13.4))
        #expect(first.time == timestamp(2024, 6, 3, 23, 50, 1))
        #expect(first.altitudeMSL == 34.5 && first.satellites == 9 && first.speed == 1.5 && first.mode == .threeD)
        #expect(first.horizontalAccuracy == 0.8 * NMEAEpoch.userEquivalentRangeError)
        #expect(fixes.last?.time == nil && fixes.last?.mode == .twoD)
    }

    @Test func offsetTimesAreConvertedToUTC() throws {
        let text = Self.gpx(#"<trkpt lat="1" lon="2"><time>2024-06-04T01:50:02.25+02:00</time></trkpt>"#)
        #expect(try readTrace(text).fixes.first?.time == timestamp(2024, 6, 3, 23, 50, 2, 250))
    }

    @Test func badPointsAreCountedAsMalformed() throws {
        let text = Self.gpx(#"<trkpt lat="91" lon="2"/><trkpt lat="x" lon="2"/><trkpt lon="2"/>"#
                            + #"<trkpt lat="1" lon="2"><time>noon</time></trkpt><trkpt lat="1" lon="2"/>"#)
        let (fixes, statistics) = try readTrace(text)
        #expect(fixes.count == 1 && statistics.malformed == 4)
    }

    @Test func pointsSplitAcrossChunksAreRead() throws {
        let text = Array(try String(contentsOfFile: Paths.traces + "/berlin-drive-start.gpx", encoding: .utf8).utf8)
        for chunk in [1, 7, 100, 4096] {
            var reader = TraceReader()
            var fixes: [Fix] = []
            var start = 0
            while start < text.count {
                let end = min(text.count, start + chunk)
                try text[start..<end].withUnsafeBytes { try reader.consume($0) { fixes.append($0) } }
                start = end
            }
            try reader.finish { fixes.append($0) }
            #expect(fixes.count == 120, "chunks of \(chunk)")
        }
    }

    @Test func sampleTrackMatchesTheNMEAItCameFrom() throws {
        var fromNMEA: [Fix] = []
        _ = try TraceFile.read(Paths.traces + "/berlin-drive.nmea") { fromNMEA.append($0) }
        var fromGPX: [Fix] = []
        _ = try TraceFile.read(Paths.traces + "/berlin-drive-start.gpx") { fromGPX.append($0) }
        #expect(fromGPX.count == 120)
        for (gpx, nmea) in zip(fromGPX, fromNMEA) {
            #expect(gpx.time == nmea.time)
            #expect(abs(gpx.coordinate.latitude - nmea.coordinate.latitude) < 1e-9)
            #expect(gpx.altitudeMSL == nmea.altitudeMSL && gpx.satellites == nmea.satellites)
        }
    }
}
