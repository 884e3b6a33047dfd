import GPSD
import Testing
import TestSupport
import GPSDTestSupport

@Suite struct GPSDPowerTests {
    @Test("gpsd releases the device only when the last consumer stops iterating")
    func watchIsDroppedWithLastConsumer() async throws {
        let directory = TemporaryDirectory()
        let feeder = try NMEAFeeder(contentsOf: gpsdTraces + "/ublox-neo-m9n-nmea.log", delay: .milliseconds(5))
        let daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd.log"))
        let states = StateRecorder()
        let source = GPSDSource(.init(host: "127.0.0.1", port: daemon.port), onStateChange: states.handler)
        // gpsd -D 4 logs "device 0 (fd 6) released" the moment no client watches the device any more.
        let released = ") released"
        #expect(source.consumerCount == 0)
        #expect(states.states.isEmpty, "the source watched before anyone asked")

        let first = FixCollector()
        let second = FixCollector()
        let firstConsumer = Task { for await fix in source.fixes() { first.append(fix) } }
        let secondConsumer = Task {
            // Leaves by `break`, dropping its iterator, rather than by cancellation.
            for await fix in source.fixes() {
                second.append(fix)
                if second.count == 12 { break }
            }
        }
        try #require(await eventually(within: .seconds(10)) { first.count >= 3 && second.count >= 3 })
        #expect(source.consumerCount == 2)

        firstConsumer.cancel()
        await firstConsumer.value
        #expect(await eventually(within: .seconds(2)) { source.consumerCount == 1 })
        let countAfterFirstLeft = second.count
        #expect(await eventually(within: .seconds(5)) { second.count > countAfterFirstLeft }, "fixes stopped for the remaining consumer")
        #expect(!daemon.log().contains(released), "gpsd released the device while a consumer remained")

        await secondConsumer.value
        #expect(source.consumerCount == 0)
        #expect(await eventually(within: .seconds(3)) { daemon.log().contains(released) },
                "gpsd still holds the device for a watcher")
        #expect(await eventually(within: .seconds(2)) { states.last == .idle })

        // A later consumer watches again, through a fresh connection.
        let third = FixCollector()
        let thirdConsumer = Task { for await fix in source.fixes() { third.append(fix) } }
        defer { thirdConsumer.cancel() }
        #expect(await eventually(within: .seconds(5)) { third.count >= 2 }, "\(states.states)")
        #expect(states.states.suffix(3) == [.connecting, .watching, .fixing])
    }
}
