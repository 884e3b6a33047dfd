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

    /// `input` is a file given as standard input; `environment` replaces the inherited one.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String]? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: geowake)
        process.arguments = arguments
        if let environment { process.environment = environment }
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
              (["fleet", "publish", "traces/berlin-drive.nmea", "--device", "van", "--speed", "-2"], "--speed must be 0 or more"),
              (["fleet", "events", "--durable", "reader", "--idle-exit", "-1"], "--idle-exit must be a number of seconds >= 0"),
              (["fleet", "worker", "--exit-when-idle", "-1"], "--exit-when-idle must be a number of seconds >= 0"),
              (["fleet", "worker", "--wait-for-workers", "0"], "--wait-for-workers must be at least 1"),
              (["fleet", "publish", "traces/berlin-drive.nmea", "--device", "van", "--batch", "-1"], "--batch must be at least 1"),
              (["bench", "nmea", "--runs", "-3", "traces/berlin-drive.nmea"], "--runs must be at least 1"),
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

    @Test("locate's lines for fixes that stay in, leave and swap regions, many and escaped, equal the map path's and count right")
    func locateLinesForRepeatedShrinkingAndSwappedRegionSets() throws {
        let directory = TemporaryDirectory()
        // 40 concentric circles (100 m to 4 km) with ids that need escaping, and two small circles apart.
        var features = (1...40).map { r in
            "{\"type\":\"Feature\",\"id\":\"ring \\\"\(r)\\\" \\\\ \\t\",\"geometry\":{\"type\":\"Point\","
                + "\"coordinates\":[13.4,52.5]},\"properties\":{\"radius\":\(r * 100)}}"
        }
        for (id, longitude) in [("west", 13.2), ("east", 13.6)] {
            features.append("{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\","
                + "\"coordinates\":[\(longitude),52.5]},\"properties\":{\"radius\":50}}")
        }
        let regions = directory.write("rings.geojson", "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}")
        // First a fix in no region; then outwards from the centre, three fixes 50 m past each ring (in 40 - k
        // rings), then back in; then west, east, west: one region each time, a different one. Fixes a second
        // apart, across midnight. Points are (longitude, regions containing it).
        let metresPerDegree: Double = 111_320 * cos(52.5 * Double.pi / 180)
        let steps: [Int] = Array(0...40) + Array((0..<40).reversed())
        var points: [(Double, Int)] = [(13.0, 0)]
        for k in steps {
            let longitude: Double = 13.4 + Double(k * 100 + 50) / metresPerDegree
            points += Array(repeating: (longitude, 40 - k), count: 3)
        }
        points += [(13.2, 1), (13.2, 1), (13.6, 1), (13.6, 1), (13.2, 1)]
        let trackPoints = points.enumerated().map { i, point in
            let time = i < 60 ? String(format: "2024-06-03T23:59:%02dZ", i)
                : String(format: "2024-06-04T00:%02d:%02dZ", (i - 60) / 60, (i - 60) % 60)
            return "<trkpt lat=\"52.5\" lon=\"\(point.0)\"><time>\(time)</time></trkpt>"
        }
        let trace = directory.write("walk.gpx", "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg>"
            + trackPoints.joined() + "</trkseg></trk></gpx>")
        let plain = try Self.run(["locate", "--regions", regions, trace])
        let mapped = try Self.run(["locate", "--regions", regions, trace, "--map", directory.file("map.svg")])
        #expect(plain.status == 0 && mapped.status == 0, "\(plain.errorLines)")
        #expect(plain.output == mapped.output)
        let lines = try Self.jsonLines(plain.output)
        let located = try lines.map { try #require($0["regions"] as? [String]) }
        #expect(located.map(\.count) == points.map(\.1))
        #expect(located.suffix(5) == [["west"], ["west"], ["east"], ["east"], ["west"]])
        #expect(located.count > 1 && located[1].contains("ring \"40\" \\ \t"))
        #expect(located.allSatisfy { $0 == $0.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } })
        #expect(lines.contains { $0["time"] as? String == "2024-06-04T00:00:00.000Z" })
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
