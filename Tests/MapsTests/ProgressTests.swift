import Foundation
import TerminalProgress
import Testing

/// The progress bar: drawn under a pseudo-terminal, silent through a pipe and with --quiet.
@Suite struct ProgressTests {
    /// A long trace: the bundled drive many times over (the repeats go back in time and are skipped, but read).
    static func longTrace(in dir: String) throws -> String {
        let drive = try Data(contentsOf: URL(fileURLWithPath: CommandRunner.root + "/traces/berlin-drive.nmea"))
        var data = Data()
        for _ in 0..<60 { data.append(drive) }
        let path = dir + "/long.nmea"
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func underTerminal(_ arguments: [String]) throws -> String {
        let command = ([CommandRunner.geowake] + arguments).map { "'\($0)'" }.joined(separator: " ") + " >/dev/null"
        return try CommandRunner.run("/usr/bin/script", ["-qfec", command, "/dev/null"]).output
    }

    @Test("Under a pseudo-terminal a replay of a long trace draws a bar with counts, rate and time left, then erases it")
    func barUnderTerminal() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let screen = try Self.underTerminal(["replay", "--service", "standard", try Self.longTrace(in: dir)])
        #expect(screen.contains("replaying ["), "\(screen.prefix(300))")
        #expect(screen.contains(" MB/s") && screen.contains(" s left"), "\(screen.prefix(300))")
        #expect(screen.contains("\r\u{1B}[Kgeowake replay: "), "the bar is erased before the summary")
    }

    @Test("geowake fixes of a long trace draws its bar under a terminal too, erased before the summary")
    func fixesBarUnderTerminal() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let screen = try Self.underTerminal(["fixes", try Self.longTrace(in: dir)])
        #expect(screen.contains("reading ["), "\(screen.prefix(300))")
        #expect(screen.contains("\r\u{1B}[Kgeowake fixes: "), "the bar is erased before the summary")
    }

    @Test("--quiet under a terminal and a pipe without it both leave standard error to the summary line alone")
    func silentThroughPipeAndQuiet() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let trace = try Self.longTrace(in: dir)
        let quiet = try Self.underTerminal(["replay", "--service", "standard", "--quiet", trace])
        #expect(!quiet.contains("replaying"), "\(quiet.prefix(300))")
        #expect(quiet.hasPrefix("geowake replay: "))
        let piped = try CommandRunner.run(CommandRunner.geowake, ["replay", "--service", "standard", trace])
        let lines = piped.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("geowake replay: ") && !piped.error.contains("\u{1B}"), "\(piped.error)")
    }

    /// Sixty thousand circles: long enough to load that the bar's first draw is due.
    static func largeRegions(in dir: String) throws -> String {
        var text = "{\"type\":\"FeatureCollection\",\"features\":["
        for i in 0..<60_000 {
            if i > 0 { text += "," }
            let lat = 52.4 + Double(i % 300) * 0.001, lon = 13.3 + Double(i / 300) * 0.001
            text += "{\"type\":\"Feature\",\"id\":\"c\(i)\",\"properties\":{\"radius\":50},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]}}"
        }
        text += "]}"
        let path = dir + "/large.geojson"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Loading a large regions file under a pseudo-terminal draws a bar in megabytes, erased before the output; through a pipe it is silent")
    func loadingBar() throws {
        let dir = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let regions = try Self.largeRegions(in: dir)
        let screen = try Self.underTerminal(["regions", "check", regions])
        #expect(screen.contains("loading regions ["), "\(screen.prefix(300))")
        #expect(screen.contains(" MB  ") && screen.contains(" MB/s"), "\(screen.prefix(300))")
        let piped = try CommandRunner.run(CommandRunner.geowake, ["regions", "check", regions])
        #expect(piped.error.isEmpty, "\(piped.error)")
        #expect(piped.output.contains("\"regions\":60000"), "\(piped.output.prefix(200))")
    }

    @Test("The bar's line shows done and total, rate and time left")
    func barText() {
        let line = Progress.line(label: "replaying", unit: .items("fixes"), done: 250, total: 1000, elapsed: 1)
        #expect(line == "\r\u{1B}[Kreplaying [######------------------] 250/1000 fixes  250 fixes/s  3 s left")
        let bytes = Progress.line(label: "loading", unit: .bytes, done: 1 << 20, total: 4 << 20, elapsed: 2)
        #expect(bytes.contains("1.0/4.0 MB") && bytes.contains("0.5 MB/s") && bytes.contains("6 s left"))
    }
}
