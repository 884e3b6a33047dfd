import GPSD
import Testing
import TestSupport
import GPSDTestSupport

@Suite struct GPSDDeviceWatchTests {
    @Test("Watching one device by its gpsd path delivers that device's fixes")
    func watchesNamedDevice() async throws {
        let directory = TemporaryDirectory()
        let feeder = try NMEAFeeder(contentsOf: gpsdTraces + "/bu353s4.log", delay: .milliseconds(2))
        let daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd.log"))
        let device = "tcp://127.0.0.1:\(feeder.port)"
        let named = GPSDSource(.init(host: "127.0.0.1", port: daemon.port, device: device))
        let collector = FixCollector()
        let consumer = Task { for await fix in named.fixes() { collector.append(fix) } }
        defer { consumer.cancel() }

        #expect(await eventually(within: .seconds(5)) { collector.count >= 5 })
        #expect(daemon.log().contains("\"device\":\"\(device)\""), "gpsd did not receive a WATCH for the device")
    }
}
