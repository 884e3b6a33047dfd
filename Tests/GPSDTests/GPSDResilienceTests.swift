#if canImport(Glibc)
import Glibc
#endif
import GPSD
import Testing
import TestSupport
import GPSDTestSupport

@Suite struct GPSDResilienceTests {
    static let ublox = gpsdTraces + "/ublox-neo-m9n-nmea.log"

    @Test("Fixes resume after gpsd is killed mid-stream and started again on the same port")
    func resumesAfterGPSDRestart() async throws {
        let directory = TemporaryDirectory()
        // 14 s of lines: the feeder goes on where the first gpsd stopped reading, and at 3 ms a line a loaded machine
        // (CI's parallel suites) had sent the whole log before the second gpsd came, which then had no newer fix.
        let feeder = try NMEAFeeder(contentsOf: Self.ublox, delay: .milliseconds(10))
        var daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd1.log"))
        let states = StateRecorder()
        let source = GPSDSource(.init(host: "127.0.0.1", port: daemon.port, backoff: GPSDHarness.quickBackoff),
                                onStateChange: states.handler)
        let collector = FixCollector()
        let consumer = Task { for await fix in source.fixes() { collector.append(fix) } }
        defer { consumer.cancel() }

        try #require(await eventually(within: .seconds(10)) { collector.count >= 5 })
        daemon.kill(signal: SIGKILL)
        try #require(await eventually(within: .seconds(5)) { states.unavailableCount > 0 })
        // Fixes published before the kill may still be on their way to the consumer task.
        _ = await eventually(within: .seconds(2)) { collector.hasSettled(quiet: .milliseconds(300)) }
        let beforeRestart = collector.fixes
        try await Task.sleep(for: .milliseconds(300))   // more retries with gpsd absent
        daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd2.log"), port: daemon.port)

        let lastBefore = try #require(beforeRestart.compactMap(\.time).last)
        let resumed = await eventually(within: .seconds(10)) {
            collector.fixes.dropFirst(beforeRestart.count).contains { ($0.time ?? lastBefore) > lastBefore }
        }
        #expect(resumed, "no newer fix after the restart; states: \(states.states)")
        #expect(feeder.connections == 2)
        // The outage is reported as it changes (connection closed, then refused), not once per retry.
        #expect(states.unavailableCount <= 2, "\(states.states)")
        #expect(states.last == .fixing)
    }

    @Test("A source started before gpsd reports the outage once, then connects when gpsd appears")
    func connectsWhenGPSDAppears() async throws {
        let directory = TemporaryDirectory()
        let port = try freePort()
        let states = StateRecorder()
        let source = GPSDSource(.init(host: "127.0.0.1", port: port, backoff: GPSDHarness.quickBackoff),
                                onStateChange: states.handler)
        let collector = FixCollector()
        let consumer = Task { for await fix in source.fixes() { collector.append(fix) } }
        defer { consumer.cancel() }

        try await Task.sleep(for: .milliseconds(700))   // attempts at 0, 50, 150, 350, 750 ms
        #expect(states.states.count == 2, "\(states.states)")
        #expect(states.states.first == .connecting)
        #expect(states.unavailableCount == 1)

        let feeder = try NMEAFeeder(contentsOf: gpsdTraces + "/bu353s4.log", delay: .milliseconds(2))
        let daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd.log"), port: port)
        #expect(await eventually(within: .seconds(5)) { collector.count > 0 }, "\(states.states)")
        #expect(daemon.isRunning)
        #expect(states.last == .fixing)
    }

    @Test("A receiver without a fix (mode 1) yields no fixes and the state says so")
    func noFixYieldsNothing() async throws {
        let directory = TemporaryDirectory()
        let voidEpochs = (0..<40).flatMap { second in
            let time = "1200\(second < 10 ? "0" : "")\(second).00"
            return [sentence("GPRMC,\(time),V,,,,,,,010124,,,N"), sentence("GPGGA,\(time),,,,,0,00,99.99,,,,,,")]
        }
        let feeder = try NMEAFeeder(lines: voidEpochs, delay: .milliseconds(5))
        let daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd.log"))
        let states = StateRecorder()
        let source = GPSDSource(.init(host: "127.0.0.1", port: daemon.port), onStateChange: states.handler)
        let collector = FixCollector()
        let consumer = Task { for await fix in source.fixes() { collector.append(fix) } }
        defer { consumer.cancel() }

        #expect(await eventually(within: .seconds(5)) { states.last == .noFix }, "\(states.states)")
        #expect(await eventually(within: .seconds(5)) { feeder.finishedSending })
        try await Task.sleep(for: .milliseconds(300))   // gpsd's last reports reach the consumer
        #expect(collector.count == 0)
    }

    @Test("A device that gpsd loses is reported at once, and the connection to gpsd is kept")
    func lostDeviceIsReported() async throws {
        let directory = TemporaryDirectory()
        let feeder = try NMEAFeeder(contentsOf: gpsdTraces + "/bu353s4.log", delay: .milliseconds(2),
                                    hangsUpAtEnd: true)
        let daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd.log"))
        let states = StateRecorder()
        let source = GPSDSource(.init(host: "127.0.0.1", port: daemon.port, silenceTimeout: .seconds(20)),
                                onStateChange: states.handler)
        let consumer = Task { for await _ in source.fixes() {} }
        defer { consumer.cancel() }

        #expect(await eventually(within: .seconds(5)) { states.last == .silent }, "\(states.states)")
        #expect(states.states == [.connecting, .watching, .fixing, .silent])
    }

    @Test("A gpsd with nothing to report is probed, answers, and the connection is kept")
    func silentGPSDIsKept() async throws {
        let directory = TemporaryDirectory()
        let feeder = try NMEAFeeder(lines: [], delay: .milliseconds(5))
        let daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd.log"))
        let states = StateRecorder()
        let source = GPSDSource(.init(host: "127.0.0.1", port: daemon.port, silenceTimeout: .milliseconds(400)),
                                onStateChange: states.handler)
        let consumer = Task { for await _ in source.fixes() {} }
        defer { consumer.cancel() }

        try await Task.sleep(for: .milliseconds(1700))   // three silence periods, each probed
        #expect(states.states == [.connecting, .watching, .silent])
        let probes = daemon.log().split(separator: "\n").filter { $0.contains("?VERSION;") }.count
        #expect(probes >= 2, "gpsd saw \(probes) probes")
    }

    @Test("A connection whose peer stops answering is given up and reopened")
    func deadConnectionIsReplaced() async throws {
        // A listener that never accepts: the kernel completes the handshake, then nothing ever answers.
        let (listener, port) = try boundLoopbackSocket(backlog: 8)
        defer { close(listener) }
        let states = StateRecorder()
        let source = GPSDSource(.init(host: "127.0.0.1", port: port, backoff: GPSDHarness.quickBackoff,
                                      silenceTimeout: .milliseconds(150)),
                                onStateChange: states.handler)
        let consumer = Task { for await _ in source.fixes() {} }
        defer { consumer.cancel() }

        #expect(await eventually(within: .seconds(5)) { states.states.count >= 5 })
        let expectedStart: [SourceState] = [.connecting, .watching, .silent, .unavailable("no answer from gpsd for 0.15 seconds"), .watching]
        #expect(Array(states.states.prefix(5)) == expectedStart)
    }
}
