import Foundation
import JSONLines
import Testing
@testable import Traces
import TestSupport

@Suite struct TraceFileTests {
    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "/geowake-traces-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test func edgeCasesTraceGivesExactlyTheExpectedLines() throws {
        var writer = JSONLineWriter()
        let statistics = try TraceFile.read(Paths.traces + "/edge-cases.log") { writer.fixLine($0) }
        let expected = try #require(FileManager.default.contents(atPath: Paths.traces + "/edge-cases.expected.jsonl"))
        #expect(writer.bytes == Array(expected))
        #expect(statistics == {
            var s = TraceStatistics()
            s.sentences = 21
            s.checksumErrors = 1
            s.malformed = 5
            s.fixes = 7
            return s
        }())
    }

    @Test func formatIsDetectedFromContentNotName() throws {
        let json = try String(contentsOfFile: Paths.traces + "/berlin-drive-start.gpsd.json", encoding: .utf8)
        let path = try Self.temporaryFile(Array(json.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var count = 0
        _ = try TraceFile.read(path) { _ in count += 1 }
        #expect(count == 301)
    }

    @Test func missingFileIsOneLineNamingIt() {
        let error = #expect(throws: TraceError.self) { try TraceFile.read("/nonexistent/trace.nmea") { _ in } }
        #expect(error?.description == "/nonexistent/trace.nmea: cannot open: No such file or directory")
    }

    @Test func directoryCannotBeRead() {
        let error = #expect(throws: TraceError.self) { try TraceFile.read(NSTemporaryDirectory()) { _ in } }
        #expect(error?.description.contains("cannot read: Is a directory") == true)
    }

    @Test func binaryFileIsNotATrace() throws {
        var rng = SeededGenerator(seed: 1)
        let path = try Self.temporaryFile((0..<100_000).map { _ in UInt8.random(in: 0x80...0xFF, using: &rng) })
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: TraceError.self) { try TraceFile.read(path) { _ in } }
        #expect(error?.description == path + ": byte 0: not a trace: expected NMEA 0183 sentences, gpsd JSON lines or GPX 1.1")
    }

    @Test func emptyAndCommentOnlyFilesAreEmptyTraces() throws {
        for content in ["", "\n\n", "# nothing recorded\n"] {
            let path = try Self.temporaryFile(Array(content.utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let statistics = try TraceFile.read(path) { _ in Issue.record("no fixes expected") }
            #expect(statistics.sentences == 0)
        }
    }

    @Test func bodyErrorsPropagate() {
        struct Stop: Error {}
        #expect(throws: Stop.self) { try TraceFile.read(Paths.traces + "/berlin-drive.nmea") { _ in throw Stop() } }
    }

    @Test("After the body's first error no fix reaches it, plain or gzip-compressed", arguments: [false, true])
    func noFixAfterTheBodysFirstError(compressed: Bool) throws {
        struct Stop: Error {}
        var path = Paths.traces + "/berlin-drive.nmea"
        if compressed {
            let gzipped = NSTemporaryDirectory() + "geowake-\(UUID().uuidString).nmea.gz"
            #expect(system("gzip -c \(path) > \(gzipped)") == 0)
            path = gzipped
        }
        var calls = 0
        #expect(throws: Stop.self) {
            try TraceFile.read(path) { _ in
                calls += 1
                if calls == 3 { throw Stop() }
            }
        }
        #expect(calls == 3)
    }
}
