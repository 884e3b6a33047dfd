import Foundation
import Testing

/// The command-line side of issue #12's inputs: summaries, standard input, devices, undated traces.
@Suite struct CommandLineInputTests {
    static func run(_ arguments: [String], input: String? = nil) throws -> CommandLineTests.Run {
        try CommandLineTests.run(arguments, input: input)
    }

    static func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "geowake-cli-\(UUID().uuidString)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func locatePrintsASummaryOnStandardError() throws {
        let run = try Self.run(["locate", "--regions", "regions/", "traces/berlin-drive.nmea"])
        #expect(run.status == 0)
        #expect(run.errorLines == ["geowake locate: 1012 regions, 1200 fixes, 908 in at least one region; "
            + "trace: 2640 sentences read, 0 dropped for checksum, 0 dropped as malformed, 1200 fixes"])
    }

    @Test func regionsFromStandardInputLocateAsFromTheFile() throws {
        let fromFile = try Self.run(["locate", "--regions", "regions/hand-made.geojson", "traces/berlin-drive.nmea"])
        let fromInput = try Self.run(["locate", "--regions", "-", "traces/berlin-drive.nmea"],
                                     input: CommandLineTests.root + "/regions/hand-made.geojson")
        #expect(fromInput.status == 0 && !fromInput.output.isEmpty)
        #expect(fromInput.output == fromFile.output)
    }

    @Test func idPropertyAndNumberFeaturesNameRegionsWithoutIds() throws {
        let square = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[13,52],[14,52],[14,53],[13,53],[13,52]]]},\"properties\":{\"NAME\":\"Berlin\"}}"
        let regions = try Self.temporaryFile("{\"type\":\"FeatureCollection\",\"features\":[\(square)]}")
        let named = try Self.run(["locate", "--regions", regions, "--id-property", "NAME", "traces/berlin-drive-start.gpx"])
        #expect(String(decoding: named.output, as: UTF8.self).contains("\"regions\":[\"Berlin\"]"))
        let numbered = try Self.run(["locate", "--regions", regions, "--number-features", "traces/berlin-drive-start.gpx"])
        #expect(String(decoding: numbered.output, as: UTF8.self).contains("\"regions\":[\"0\"]"))
        let neither = try Self.run(["locate", "--regions", regions, "traces/berlin-drive-start.gpx"])
        #expect(neither.status != 0 && neither.errorLines.count == 1)
    }

    @Test func aDirectoryNamesTheFilesItSkipsOnStandardError() throws {
        let dir = NSTemporaryDirectory() + "geowake-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CommandLineTests.root + "/regions/hand-made.geojson", toPath: dir + "/a.geojson")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        let run = try Self.run(["regions", "check", dir])
        #expect(run.status == 0)
        #expect(run.errorLines == ["geowake regions check: skipped notes.txt in \(dir): not named *.geojson or *.json (optionally .gz)"])
    }

    @Test func fixesReadsDevNullAsAnEmptyFileInsteadOfWaiting() throws {
        let run = try Self.run(["fixes", "/dev/null"])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(run.errorLines == ["geowake fixes: 0 sentences read, 0 dropped for checksum, 0 dropped as malformed, 0 fixes"])
    }

    @Test func replayingATraceWithoutAnyDateIsOneClearError() throws {
        let body = "GPGGA,120000.00,5230.0000,N,01324.0000,E,1,08,1.0,34.0,M,0.0,M,,"
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let trace = try Self.temporaryFile("$\(body)*\(String(format: "%02X", sum))\r\n")
        let run = try Self.run(["replay", "--service", "standard", trace])
        #expect(run.status != 0)
        #expect(run.errorLines == ["Error: \(trace): none of the 1 fixes has a date (NMEA needs RMC or ZDA sentences for one); "
            + "replay needs dated fixes, `geowake locate` does not"])
    }
}
