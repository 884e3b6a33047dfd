import GeoWakeCore
import Testing
import GPSD
import TestSupport
import GPSDTestSupport

/// A gpsd fed from a log by an `NMEAFeeder`, and a `GPSDSource` reading it.
enum GPSDHarness {
    /// Backoff short enough that reconnection tests finish in a second or two.
    static let quickBackoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(400))

    /// Every fix a source receives while gpsd reads the whole log.
    static func replay(_ path: String, delay: Duration = .milliseconds(1)) async throws -> [Fix] {
        let directory = TemporaryDirectory()
        let feeder = try NMEAFeeder(contentsOf: path, delay: delay)
        let daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd.log"))
        let source = GPSDSource(.init(host: "127.0.0.1", port: daemon.port, backoff: quickBackoff))
        let collector = FixCollector()
        let consumer = Task {
            for await fix in source.fixes(bufferingNewest: 100_000) { collector.append(fix) }
        }
        defer { consumer.cancel() }
        let sent = await eventually(within: .seconds(20)) { feeder.finishedSending }
        try #require(sent, "the feeder sent \(feeder.linesSent) lines of \(path)")
        // Generous: on a loaded machine gpsd may lag the feeder; a second of silence means it has said all.
        _ = await eventually(within: .seconds(10)) { collector.hasSettled(quiet: .seconds(1)) }
        return collector.fixes
    }
}
