import GeoWakeCore
import Foundation
import Testing
@testable import Traces

/// Traces that exited 0 with 0 fixes, compressed ones, and the one gpsd-report-to-hAcc mapping (#12).
@Suite struct UnrecognisedAndCompressedTraceTests {
    func readError(_ text: String) -> String? {
        do { _ = try readTrace(text); return nil } catch { return "\(error)" }
    }

    @Test func aGeoJSONFileGivenAsATraceIsAnError() {
        #expect(readError("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":null}]}\n")
            == "byte 0: nothing recognised: a GeoJSON file, not a trace: regions go to --regions")
    }

    @Test func aKMLFileGivenAsATraceIsAnError() {
        #expect(readError("<?xml version=\"1.0\"?>\n<kml><Placemark><Point><coordinates>13,52</coordinates></Point></Placemark></kml>\n")?
            .hasPrefix("byte 0: nothing recognised: a KML file, not a trace: convert it to GPX") == true)
    }

    @Test func aGPXWithoutAnyPointIsAnError() {
        #expect(readError("<gpx version=\"1.1\"><metadata/></gpx>")
            == "byte 0: nothing recognised: a GPX file without any track, route or waypoint point (<trkpt>, <rtept>, <wpt>)")
    }

    @Test func aGPXRouteGivesItsPointsAndTheSummaryCountsPoints() throws {
        let gpx = "<gpx><wpt lat=\"1\" lon=\"1\"><name>w</name></wpt><rte><rtept lat=\"52.5\" lon=\"13.4\"/><rtept lat=\"52.6\" lon=\"13.5\"></rtept></rte></gpx>"
        let (fixes, statistics) = try readTrace(gpx)
        #expect(fixes.map(\.coordinate.latitude) == [52.5, 52.6])
        #expect(statistics.summary == "3 points read, 0 dropped for checksum, 0 dropped as malformed, 2 fixes")
    }

    @Test func waypointsAreReadWhenThereIsNeitherTrackNorRoute() throws {
        let (fixes, _) = try readTrace("<gpx><wpt lat=\"1\" lon=\"2\"/><wpt lat=\"3\" lon=\"4\"><ele>5</ele></wpt></gpx>")
        #expect(fixes.map(\.coordinate.longitude) == [2, 4])
    }

    @Test func aTrackWinsOverRoutesAndWaypointsBeforeIt() throws {
        let gpx = "<gpx><wpt lat=\"1\" lon=\"1\"/><rte><rtept lat=\"2\" lon=\"2\"/></rte><trk><trkseg><trkpt lat=\"3\" lon=\"3\"/></trkseg></trk></gpx>"
        #expect(try readTrace(gpx).fixes.map(\.coordinate.latitude) == [3])
    }

    @Test func aGzipCompressedTraceReadsAsTheTraceItself() throws {
        let plain = Paths.traces + "/berlin-drive.nmea"
        let compressed = NSTemporaryDirectory() + "geowake-\(UUID().uuidString).nmea.gz"
        #expect(system("gzip -c \(plain) > \(compressed)") == 0)
        var expected: [Fix] = [], actual: [Fix] = []
        let plainStatistics = try TraceFile.read(plain) { expected.append($0) }
        let gzipStatistics = try TraceFile.read(compressed) { actual.append($0) }
        #expect(actual == expected && !actual.isEmpty)
        #expect(gzipStatistics == plainStatistics)
    }

    @Test func aTruncatedGzipTraceIsOneClearError() throws {
        let compressed = NSTemporaryDirectory() + "geowake-\(UUID().uuidString).nmea.gz"
        #expect(system("gzip -c \(Paths.traces)/berlin-drive.nmea | head -c 2000 > \(compressed)") == 0)
        #expect(throws: TraceError.self) { try TraceFile.read(compressed) { _ in } }
        do { _ = try TraceFile.read(compressed) { _ in } } catch {
            #expect("\(error)".hasPrefix("\(compressed): the gzip data is truncated"))
        }
    }

    @Test func gpsdReportsCountAsReports() throws {
        let (_, statistics) = try readTrace("{\"class\":\"TPV\",\"mode\":2,\"lat\":1,\"lon\":2}\n")
        #expect(statistics.summary == "1 reports read, 0 dropped for checksum, 0 dropped as malformed, 1 fixes")
    }

    @Test func anEphOf19_6GivesAnHAccOf10FromAGPSDJSONFile() throws {
        let (fixes, _) = try readTrace("{\"class\":\"TPV\",\"mode\":2,\"lat\":1,\"lon\":2,\"eph\":19.6}\n")
        #expect(abs(try #require(fixes.first?.horizontalAccuracy) - 10) < 1e-9)
        #expect(GPSDErrorEstimate.horizontalAccuracy(eph: 19.6, epx: .nan, epy: .nan) == 19.6 / 1.96)
        #expect(GPSDErrorEstimate.horizontalAccuracy(eph: nil, epx: 3, epy: 4) == 5 / 1.96)
        #expect(GPSDErrorEstimate.horizontalAccuracy(eph: 0, epx: nil, epy: 4) == nil)
    }
}
