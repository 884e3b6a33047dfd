import Foundation
import Testing
import TestSupport

/// The built `geowake`, run as a user runs it, on the project's bundled data.
@Suite struct CommandLineTests {
    static let root = packageRoot
    static let geowake = builtExecutable("geowake")

    struct Run {
        var status: Int32
        var output: Data
        var errorLines: [String]
    }

    /// `input` is a file given as standard input.
    static func run(_ arguments: [String], input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: geowake)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        if let input { process.standardInput = FileHandle(forReadingAtPath: input) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: error, as: UTF8.self).split(separator: "\n").map(String.init)
        return Run(status: process.terminationStatus, output: output, errorLines: lines)
    }

    static func jsonLines(_ data: Data) throws -> [[String: Any]] {
        try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("Bad input of every kind gets exactly one error line naming what and where, and a non-zero exit",
          arguments: [
              (["replay", "--regions", "regions/", "--hysteresis", "abc", "traces/berlin-drive.nmea"], "--hysteresis"),
              (["replay", "--bogus", "traces/berlin-drive.nmea"], "--bogus"),
              (["fixes"], "<trace>"),
              (["fixes", "traces/no-such-trace.nmea"], "traces/no-such-trace.nmea"),
              (["locate", "--regions", "regions/no-such-dir", "traces/berlin-drive.nmea"], "regions/no-such-dir"),
              (["replay", "--regions", "regions/", "--exact", "--debounce", "3", "traces/berlin-drive.nmea"], "--exact"),
              (["replay", "--service", "standard", "--distance-filter", "-5", "traces/berlin-drive.nmea"], "distance"),
              (["regions", "check", "Package.swift"], "Package.swift"),
          ])
    func badInputIsOneLine(arguments: [String], named: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.geowake), "geowake is not built at \(Self.geowake)")
        let run = try Self.run(arguments)
        #expect(run.status != 0)
        #expect(run.errorLines.count == 1, "\(run.errorLines)")
        #expect(run.errorLines.first?.hasPrefix("Error: ") == true)
        #expect(run.errorLines.first?.contains(named) == true, "\(run.errorLines)")
    }

    @Test("locate --map prints the same lines as without a map and draws every region a fix fell in")
    func locateWithAMapPrintsTheSameLinesAndDrawsTheLocatedRegions() throws {
        let regions = "regions/berlin-1k.geojson", trace = "traces/berlin-drive.nmea"
        let directory = TemporaryDirectory()
        let map = directory.path + "/located.svg"
        let plain = try Self.run(["locate", "--regions", regions, trace])
        let mapped = try Self.run(["locate", "--regions", regions, trace, "--map", map])
        #expect(mapped.status == 0 && mapped.output == plain.output)
        let located = Set(try Self.jsonLines(plain.output).flatMap { try #require($0["regions"] as? [String]) })
        let svg = try String(contentsOfFile: map, encoding: .utf8)
        #expect(located.count > 5)
        #expect(located.filter { !svg.contains("data-id=\"\($0)\"") }.isEmpty, "every located region is drawn")
    }

    @Test("replay --exact prints exactly the differences of locate's sets between consecutive fixes, on bundled data")
    func exactReplayIsTheDifferenceOfLocateSets() throws {
        let regions = "regions/berlin-1k.geojson", trace = "traces/berlin-drive.nmea"
        let located = try Self.jsonLines(Self.run(["locate", "--regions", regions, trace]).output)
        var expected: [String] = []
        var previous = Set<String>()
        for fix in located {
            let now = Set(try #require(fix["regions"] as? [String]))
            let time = try #require(fix["time"] as? String)
            expected += previous.subtracting(now).sorted().map { "exit \($0) \(time)" }
            expected += now.subtracting(previous).sorted().map { "enter \($0) \(time)" }
            previous = now
        }
        let replay = try Self.run(["replay", "--regions", regions, "--exact", trace])
        #expect(replay.status == 0)
        let events = try Self.jsonLines(replay.output).map { "\($0["event"]!) \($0["region"]!) \($0["time"]!)" }
        #expect(expected.count > 10, "the bundled drive should pass through bundled regions")
        #expect(events == expected)
    }

    @Test("The same replay twice gives byte-identical output, for every service")
    func replayIsDeterministic() throws {
        for service in [["--regions", "regions/berlin-1k.geojson", "--segment-crossing"], ["--service", "standard"],
                        ["--service", "significant"], ["--service", "visits"]] {
            let arguments = ["replay"] + service + ["traces/berlin-drive.nmea"]
            let first = try Self.run(arguments), second = try Self.run(arguments)
            #expect(first.status == 0 && !first.output.isEmpty, "\(service): \(first.errorLines)")
            #expect(first.output == second.output, "\(service)")
        }
    }

    @Test("fixes reads the bundled trace from standard input the same as from the file")
    func fixesFromStandardInputMatchTheFile() throws {
        let fromFile = try Self.run(["fixes", "traces/berlin-drive-start.gpx"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.geowake)
        process.arguments = ["fixes", "-"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: Self.root + "/traces/berlin-drive-start.gpx"))
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(try Self.jsonLines(fromFile.output).count == 120)
        #expect(output == fromFile.output)
    }
}
