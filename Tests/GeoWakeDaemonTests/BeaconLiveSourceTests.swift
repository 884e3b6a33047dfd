import Foundation
import Testing
import TestSupport

/// Live beacon sources: an external scanner's JSON lines through a real FIFO, and an adapter that does not exist.
@Suite(.serialized) struct BeaconLiveSourceTests {
    /// Sightings are read as they arrive; the exit comes from the daemon's own timer, one exit timeout after the
    /// last sighting, with no further line written.
    @Test func linesThroughAFIFOEnterAndExitOnTheDaemonsTimer() throws {
        let daemon = DaemonProcess()
        let fifo = daemon.directory + "/scanner.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        try daemon.start(source: nil, options: ["--beacon-source", "lines:" + fifo, "--beacon-exit-timeout", "1"])
        let raw = try RawClient.registered(daemon, as: "org.example.scanner")
        let region: [String: Any] = ["type": "Feature", "id": "entrance", "geometry": NSNull(),
                                     "properties": ["kind": "beacon", "uuid": BeaconFixtures.shopUUID, "major": 1]]
        #expect(try raw.request("monitor", ["features": [region]])["ok"] as? Bool == true)
        let writer = open(fifo, O_WRONLY)   // blocks until the daemon, now that beacons are needed, opens it
        #expect(writer >= 0)
        defer { close(writer) }
        let lines = try String(contentsOfFile: BeaconFixtures.trace, encoding: .utf8).split(separator: "\n").prefix(3)
        let written = Date()
        for line in lines { _ = write(writer, line + "\n", line.utf8.count + 1) }
        let (events, _) = raw.readMessages(within: 10, acknowledging: false) { events, _ in events.contains { $0["event"] as? String == "exit" } }
        let kinds = events.map { $0["event"] as? String ?? "" }
        #expect(kinds == ["enter", "exit"], "\(events)")
        #expect(events.allSatisfy { $0["region"] as? String == "entrance" })
        #expect(Date().timeIntervalSince(written) >= 1, "the exit waits for the exit timeout")
        let beacon = events.first?["beacon"] as? [String: Any]
        #expect(beacon?["uuid"] as? String == BeaconFixtures.shopUUID && beacon?["major"] as? Int == 1)
        let status = try #require(try raw.request("status")["result"] as? [String: Any])
        let source = status["beaconSource"] as? [String: Any]
        #expect(source?["description"] as? String == "lines:" + fifo)
        #expect(source?["state"] as? String == "running")
    }

    @Test func anAdapterThatDoesNotExistIsOneStatusEventNotACrash() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: ["--beacon-source", "hci7"])
        let raw = try RawClient.registered(daemon, as: "org.example.adapter")
        #expect(try raw.request("startRangingBeacons", ["uuid": BeaconFixtures.shopUUID])["ok"] as? Bool == true)
        let (events, _) = raw.readMessages(within: 8, acknowledging: false)
        #expect(events.count == 1, "one status event however often the daemon retries: \(events)")
        #expect(events.first?["state"] as? String == "unavailable")
        #expect(events.first?["source"] as? String == "beacons")
        #expect((events.first?["message"] as? String)?.contains("hci7") == true, "\(events)")
        #expect(daemon.isRunning)
        let status = try #require(try raw.request("status")["result"] as? [String: Any])
        #expect((status["beaconSource"] as? [String: Any])?["state"] as? String == "unavailable")

        let lines = try Wake.cli(daemon, ["status"])
        let beaconSource = lines.first { $0["type"] as? String == "beaconSource" }
        #expect(beaconSource?["description"] as? String == "hci7")
        #expect(beaconSource?["state"] as? String == "unavailable")
        #expect((beaconSource?["message"] as? String)?.isEmpty == false)
        let client = lines.first { $0["client"] as? String == "org.example.adapter" }
        #expect(client?["subscriptions"] as? [String] == ["ranging"])
        let region: [String: Any] = ["type": "Feature", "id": "till", "geometry": NSNull(),
                                     "properties": ["kind": "beacon", "uuid": BeaconFixtures.shopUUID, "major": 7, "minor": 42]]
        #expect(try raw.request("monitor", ["features": [region]])["ok"] as? Bool == true)
        let subscriptions = try Wake.cli(daemon, ["subscriptions", "org.example.adapter"])
        #expect(subscriptions.map { $0["kind"] as? String ?? "" } == ["regions", "ranging", "region"])
        #expect((subscriptions.last?["beacon"] as? [String: Any])?["minor"] as? Int == 42)
        #expect(subscriptions.last?["state"] as? String == "outside")
    }

    @Test func aBeaconSourceThatIsNotOneIsOneErrorLine() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: ["--beacon-source", "bluetooth"])
        usleep(300_000)
        #expect(!daemon.isRunning)
        let log = try String(contentsOfFile: daemon.log, encoding: .utf8)
        #expect(log.contains("--beacon-source must be trace:FILE, lines:PATH"), "\(log)")
        #expect(!log.contains("Fatal error") && !log.contains("Stack dump"))
    }
}
