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
        try Data(till.utf8).write(to: URL(fileURLWithPath: region))
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

    /// Two clients ranging the till's UUID, launched for its region's enter, on 1 s budgets: the one with the
    /// `bluetooth-central` background mode keeps running while it ranges, the other is suspended.
    @Test func aRangingClientWithTheBluetoothModeKeepsRunningAndOneWithoutIsSuspended() throws {
        let daemon = DaemonProcess()
        let region = daemon.directory + "/till.geojson"
        let ranger = daemon.directory + "/ranger.jsonl", sleeper = daemon.directory + "/sleeper.jsonl"
        let uuid = "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6"
        let till = "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\"till\",\"geometry\":null,"
            + "\"properties\":{\"kind\":\"beacon\",\"uuid\":\"\(uuid)\",\"major\":7,\"minor\":42}}]}"
        try Data(till.utf8).write(to: URL(fileURLWithPath: region))
        try daemon.start(source: nil, options: ["--beacon-source", "trace:" + BeaconFixtures.trace, "--speed", "20", "--budget", "1"])
        defer { Wake.killAll([ranger, sleeper]) }
        try Wake.startByHand(daemon, "org.example.ranger", output: ranger,
                             ["--relaunch", "--regions", region, "--range", uuid, "--bluetooth-background", "--register-only"]).waitUntilExit()
        try Wake.startByHand(daemon, "org.example.sleeper", output: sleeper,
                             ["--relaunch", "--regions", region, "--range", uuid, "--register-only"]).waitUntilExit()
        #expect(Wake.eventually { Wake.launched(ranger).count == 1 && Wake.launched(sleeper).count == 1 })
        let rangerPID = try Wake.launchedPID(ranger), sleeperPID = try Wake.launchedPID(sleeper)
        var rangerStopped = false, sleeperStopped = false
        let until = Date().addingTimeInterval(4)
        while Date() < until {
            if Wake.state(rangerPID) == "T" { rangerStopped = true }
            if Wake.state(sleeperPID) == "T" { sleeperStopped = true }
            usleep(50_000)
        }
        #expect(!rangerStopped, "the bluetooth-central client was suspended while ranging")
        #expect(sleeperStopped, "the client without the mode was never suspended")
        let status = try Wake.status(daemon, "org.example.ranger")
        #expect(status["backgroundModes"] as? [String] == ["bluetooth-central"])
        #expect(status["backgroundLocation"] as? Bool == true)
    }
}
