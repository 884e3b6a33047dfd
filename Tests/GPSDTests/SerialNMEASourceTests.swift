import GeoWakeCore
import GPSD
import Testing
import Traces
import TestSupport
import GPSDTestSupport

@Suite struct SerialNMEASourceTests {
    static let log = gpsdTraces + "/bu353s4.log"

    @Test("Fixes over a pty are the NMEA reader's, and resume when the device vanishes and returns")
    func survivesDeviceVanishingAndReturning() async throws {
        var reference: [Fix] = []
        _ = try TraceFile.read(Self.log) { reference.append($0) }
        let referenceByTime = Dictionary(reference.compactMap { fix in fix.time.map { ($0, fix) } }) { _, last in last }
        let lines = splitLines(try readFile(Self.log))
        let half = lines.count / 2

        let directory = TemporaryDirectory()
        let link = directory.file("gps0")
        var device = try PseudoTerminal()
        try device.link(at: link)
        let states = StateRecorder()
        let source = try SerialNMEASource(.init(path: link, baudRate: 9600, backoff: GPSDHarness.quickBackoff,
                                                epochGap: .milliseconds(50)), onStateChange: states.handler)
        let collector = FixCollector()
        let consumer = Task { for await fix in source.fixes() { collector.append(fix) } }
        defer { consumer.cancel() }

        try #require(await eventually(within: .seconds(5)) { states.last == .watching })
        try device.write(lines[..<half].flatMap { $0 })
        try #require(await eventually(within: .seconds(5)) { collector.hasSettled(quiet: .milliseconds(200)) })
        let beforeUnplug = collector.fixes

        device.unplug()
        try #require(await eventually(within: .seconds(5)) { states.unavailableCount > 0 }, "\(states.states)")
        try await Task.sleep(for: .milliseconds(300))   // retries while the path leads nowhere
        device = try PseudoTerminal()
        try device.link(at: link)
        try #require(await eventually(within: .seconds(5)) { states.last == .watching }, "\(states.states)")
        try device.write(lines[half...].flatMap { $0 })
        let lastBefore = try #require(beforeUnplug.compactMap(\.time).last)
        #expect(await eventually(within: .seconds(5)) {
            collector.hasSettled(quiet: .milliseconds(200)) && collector.fixes.contains { ($0.time ?? lastBefore) > lastBefore }
        }, "no fix after the device returned; states: \(states.states)")

        // Every fix is the reader's fix for that time; only epochs cut by the unplug may be missing.
        let received = collector.fixes.filter { $0.time != nil }
        for fix in received {
            let expected = try #require(referenceByTime[fix.time!], "unexpected time \(fix.time!)")
            #expect(abs(fix.coordinate.latitude - expected.coordinate.latitude) <= 1e-6)
            #expect(abs(fix.coordinate.longitude - expected.coordinate.longitude) <= 1e-6)
        }
        let missing = Set(referenceByTime.keys).subtracting(received.compactMap(\.time))
        #expect(missing.count <= 2, "missing \(missing.sorted())")
        #expect(states.unavailableCount <= 2, "\(states.states)")
    }

    @Test("The tty is closed when the last consumer leaves, and opened again by the next")
    func closesDeviceWithLastConsumer() async throws {
        let directory = TemporaryDirectory()
        let link = directory.file("gps0")
        let device = try PseudoTerminal()
        try device.link(at: link)
        let states = StateRecorder()
        let source = try SerialNMEASourceTests.quickSource(link, states)
        #expect(!device.isSlaveOpen, "opened before anyone asked for fixes")

        let consumer = Task { for await _ in source.fixes() {} }
        #expect(await eventually(within: .seconds(5)) { device.isSlaveOpen })
        consumer.cancel()
        await consumer.value
        #expect(await eventually(within: .seconds(2)) { !device.isSlaveOpen }, "the tty stayed open")
        #expect(await eventually(within: .seconds(2)) { states.last == .idle })

        let again = Task { for await _ in source.fixes() {} }
        defer { again.cancel() }
        #expect(await eventually(within: .seconds(5)) { device.isSlaveOpen })
    }

    @Test("An unsupported baud rate is refused with the rates that work")
    func rejectsUnsupportedBaudRate() {
        #expect(throws: SerialError.self) { try SerialNMEASource(.init(path: "/dev/null", baudRate: 12345)) }
    }

    static func quickSource(_ path: String, _ states: StateRecorder) throws -> SerialNMEASource {
        try SerialNMEASource(.init(path: path, baudRate: 4800, backoff: GPSDHarness.quickBackoff), onStateChange: states.handler)
    }
}
