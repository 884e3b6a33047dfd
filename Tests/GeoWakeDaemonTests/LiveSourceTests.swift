import Foundation
import GPSDTestSupport
import Testing

/// geowaked on a real gpsd, which reads the Berlin drive from a `tcp://` NMEA feed; and the health `status` events
/// subscribers get when gpsd goes away or the receiver stops giving fixes.
@Suite(.serialized) struct LiveSourceTests {
    static let trace = DaemonProcess.root + "/traces/berlin-drive.nmea"

    /// A registered raw client with standard updates started.
    static func subscriber(_ daemon: DaemonProcess) throws -> RawClient {
        let client = try RawClient(daemon.socket)
        try client.hello()
        #expect(try client.request("register", ["client": "org.example.live"])["ok"] as? Bool == true)
        #expect(try client.request("startStandard")["ok"] as? Bool == true)
        return client
    }

    /// Reads until an event satisfies `match` or `seconds` pass; returns it.
    static func awaitEvent(_ client: RawClient, within seconds: Double, _ match: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(seconds)
        if let found = client.events.compactMap({ $0["event"] as? [String: Any] }).first(where: match) { return found }
        while Date() < deadline, let message = client.receive() {
            guard message["type"] as? String == "event", let event = message["event"] as? [String: Any] else { continue }
            client.events.append(message)
            if match(event) { return event }
        }
        return nil
    }

    static func state(_ event: [String: Any]) -> String? {
        event["event"] as? String == "status" ? event["state"] as? String : nil
    }

    @Test func fixesFromARealGPSDReachASubscriberAndGPSDKilledBecomesAnUnavailableStatusEvent() async throws {
        let directory = NSTemporaryDirectory() + "geowaked-gpsd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let feeder = try NMEAFeeder(contentsOf: Self.trace, delay: .milliseconds(2))
        let gpsd = try await GPSDaemon(feedPort: feeder.port, logPath: directory + "/gpsd.log")
        let daemon = DaemonProcess()
        try daemon.start(source: "gpsd://127.0.0.1:\(gpsd.port)", options: ["--no-fix-after", "30"])
        let client = try Self.subscriber(daemon)
        let location = Self.awaitEvent(client, within: 20) { $0["event"] as? String == "location" }
        #expect(location?["lat"] as? Double ?? 0 > 52, "a location event from gpsd's fixes of the Berlin drive")
        let status = try client.request("status")
        let source = (status["result"] as? [String: Any])?["source"] as? [String: Any]
        #expect(source?["description"] as? String == "gpsd://127.0.0.1:\(gpsd.port)")
        #expect(source?["state"] as? String == "running")

        gpsd.kill(signal: SIGKILL)
        let lost = Self.awaitEvent(client, within: 20) { Self.state($0) == "unavailable" }
        #expect(lost != nil, "a status event saying gpsd is unavailable; log: \(daemon.log)")
        #expect(daemon.isRunning)
    }

    @Test func aReceiverThatFallsSilentBecomesANoFixStatusEventAfterTheConfiguredSeconds() async throws {
        let directory = NSTemporaryDirectory() + "geowaked-gpsd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Thirty epochs, then the feed stays open and says nothing: gpsd is up, the receiver silent.
        let lines = splitLines(try readFile(Self.trace)).prefix(90)
        let feeder = try NMEAFeeder(lines: Array(lines), delay: .milliseconds(2))
        let gpsd = try await GPSDaemon(feedPort: feeder.port, logPath: directory + "/gpsd.log")
        let daemon = DaemonProcess()
        try daemon.start(source: "gpsd://127.0.0.1:\(gpsd.port)", options: ["--no-fix-after", "2"])
        let client = try Self.subscriber(daemon)
        #expect(Self.awaitEvent(client, within: 20) { $0["event"] as? String == "location" } != nil)
        let started = Date()
        let silent = Self.awaitEvent(client, within: 20) { Self.state($0) == "noFix" }
        #expect(silent != nil, "a noFix status event; log: \(daemon.log)")
        #expect(Date().timeIntervalSince(started) >= 1, "not before the feed went quiet")
        _ = gpsd
    }

    @Test func fixesWorseThanThePoorAccuracyLimitDecideNoRegionAndSayPoorAccuracyOnce() throws {
        let daemon = DaemonProcess()
        try daemon.start(options: ["--poor-accuracy", "0.01"])
        let client = try RawClient.registered(daemon, as: "org.example.poor")
        _ = try client.request("monitor", ["features": ProtocolTests.regions])
        ProtocolTests.endOfTrace(client)
        let events = client.events.compactMap { $0["event"] as? [String: Any] }
        #expect(events.filter { Self.state($0) == "poorAccuracy" }.count == 1)
        #expect(events.filter { $0["event"] as? String == "enter" }.isEmpty)
        #expect(Self.state(events.last ?? [:]) == "ended")
    }

    @Test func fixesFromASerialReceiverReachASubscriberAndUnpluggingItBecomesAnUnavailableStatusEvent() throws {
        let device = try PseudoTerminal()
        let daemon = DaemonProcess()
        try daemon.start(source: device.slavePath, options: ["--baud", "9600"])
        let client = try Self.subscriber(daemon)
        // Sixty epochs of the drive (GGA, RMC, GST), one every 20 ms, as a receiver sends them.
        let lines = splitLines(try readFile(Self.trace)).prefix(180)
        for start in stride(from: lines.startIndex, to: lines.endIndex, by: 3) {
            try device.write(Array(lines[start..<min(start + 3, lines.endIndex)].joined()))
            usleep(20_000)
        }
        let location = Self.awaitEvent(client, within: 20) { $0["event"] as? String == "location" }
        #expect(location?["lat"] as? Double ?? 0 > 52, "a location event from the serial device; log: \(daemon.log)")
        device.unplug()
        let lost = Self.awaitEvent(client, within: 20) { Self.state($0) == "unavailable" }
        #expect(lost != nil, "a status event saying the device is unavailable; log: \(daemon.log)")
    }
}
