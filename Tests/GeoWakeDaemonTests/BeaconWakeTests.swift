import Foundation
import Testing
import GeoWakeProtocol

/// A beacon region's events launch a subscriber that is not running, as region events do, with reason `beacon`.
@Suite(.serialized) struct BeaconWakeTests {
    @Test func aBeaconRegionEnterLaunchesTheSubscriberWithReasonBeaconAndDeliversTheEnterOnce() throws {
        let daemon = DaemonProcess()
        let region = daemon.directory + "/till.geojson", output = daemon.directory + "/out.jsonl"
        // The till's AltBeacon is first heard 60.3 s into the trace: 3 s after monitoring starts at 20 times real time.
        let till = "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\"till\",\"geometry\":null,"
            + "\"properties\":{\"kind\":\"beacon\",\"uuid\":\"2f234454-cf6d-4a0f-adf2-f4911ba9ffa6\",\"major\":7,\"minor\":42}}]}"
        FileManager.default.createFile(atPath: region, contents: Data(till.utf8))
        try daemon.start(source: nil, options: ["--beacon-source", "trace:" + BeaconFixtures.trace, "--speed", "20"])
        defer { Wake.killAll([output]) }
        try Wake.startByHand(daemon, "org.example.till", output: output, ["--relaunch", "--regions", region, "--register-only"])
            .waitUntilExit()
        #expect(Wake.launched(output).isEmpty)

        #expect(Wake.eventually { Wake.events(output).contains { $0["event"] as? String == "enter" } })
        let launched = Wake.launched(output)
        #expect(launched.count == 1)
        #expect(launched.first?["reason"] as? String == "beacon")
        let enters = Wake.events(output).filter { $0["event"] as? String == "enter" }
        #expect(enters.count == 1)
        #expect(enters.first?["region"] as? String == "till")
        #expect(enters.first?["time"] as? String == "2026-11-23T10:01:00.300Z")
        #expect(try Wake.status(daemon, "org.example.till")["lastLaunchReason"] as? String == "beacon")
    }
}
