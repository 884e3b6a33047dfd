import Foundation
import Testing
import TestSupport

/// Beacon regions through the real daemon replaying a recorded beacon trace, against `geowake replay --beacons`.
@Suite(.serialized) struct BeaconRegionMonitoringTests {
    static let client = "org.example.beacons"

    @Test func beaconRegionEventsEqualWhatReplayPrints() throws {
        let expected = try BeaconFixtures.replayedRegionEvents()
        #expect(expected.count == 6)
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: ["--beacon-source", "trace:" + BeaconFixtures.trace, "--speed", "0"])
        let raw = try RawClient.registered(daemon, as: Self.client)
        let reply = try raw.request("monitor", ["features": try BeaconFixtures.features()])
        #expect((reply["result"] as? [String: Any])?["added"] as? Int == 5, "\(reply)")
        let (events, _) = raw.readMessages(acknowledging: false) { events, _ in events.contains { $0["state"] as? String == "ended" } }
        #expect(firstDifference(regionEventLines(events), expected) == nil)
        #expect(events.map { $0["seq"] as? Int ?? 0 } == Array(1...events.count))
        let ended = events.last { $0["event"] as? String == "status" }
        #expect(ended?["source"] as? String == "beacons")

        let state = try raw.request("regionState", ["region": "till"])
        let result = try #require(state["result"] as? [String: Any], "\(state)")
        #expect(result["state"] as? String == "outside")
        #expect(result["since"] as? String == "2026-11-23T10:03:49.800Z")
        let list = try #require(try raw.request("list")["result"] as? [String: Any])
        let ids = (list["regions"] as? [[String: Any]] ?? []).map { $0["region"] as? String ?? "" }
        #expect(ids == ["shop-block", "shop-entrance", "shop-entrance-minor-0", "till", "till-as-ibeacon"])
        let status = try #require(try raw.request("status")["result"] as? [String: Any])
        let source = status["beaconSource"] as? [String: Any]
        #expect(source?["state"] as? String == "ended")
        #expect((source?["lastSighting"] as? [String: Any])?["time"] as? String == "2026-11-23T10:03:57.000Z")
    }

    /// SIGKILL twice mid-trace (at 20 times real time the 4-minute trace takes 12 s): every region event reaches the
    /// client once, none repeated, none lost; the client keeps the highest seq it handled, as the protocol asks.
    @Test func killedDaemonRestartsWithoutRepeatedEnterOrLoss() throws {
        let expected = try BeaconFixtures.replayedRegionEvents()
        let daemon = DaemonProcess()
        let options = ["--beacon-source", "trace:" + BeaconFixtures.trace, "--speed", "20"]
        try daemon.start(source: nil, options: options)
        var raw = try RawClient.registered(daemon, as: Self.client)
        #expect(try raw.request("monitor", ["features": try BeaconFixtures.features()])["ok"] as? Bool == true)
        var handled: [[String: Any]] = []
        var lastSeq = 0
        func take(_ events: [[String: Any]]) {
            for event in events where event["seq"] as? Int ?? 0 > lastSeq {
                lastSeq = event["seq"] as! Int
                handled.append(event)
            }
        }
        for pause in [2.5, 4.0] {
            take(raw.readMessages(within: pause).events)
            daemon.stop(signal: SIGKILL)
            try daemon.start(source: nil, options: options)
            raw = try RawClient.registered(daemon, as: Self.client)
        }
        take(raw.readMessages { _, _ in handled.contains { $0["state"] as? String == "ended" } }.events)
        #expect(firstDifference(regionEventLines(handled), expected) == nil)
        let enters = handled.filter { $0["event"] as? String == "enter" }.map { $0["region"] as? String ?? "" }
        #expect(enters.count == Set(enters).count, "an enter was repeated: \(enters)")
    }

    @Test func badBeaconRegionsGetAClearErrorAndAddNothing() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: ["--beacon-source", "trace:" + BeaconFixtures.trace, "--speed", "0"])
        let raw = try RawClient.registered(daemon, as: Self.client)
        func beacon(_ id: String, _ properties: [String: Any]) -> [String: Any] {
            ["type": "Feature", "id": id, "geometry": NSNull(), "properties": properties.merging(["kind": "beacon"]) { a, _ in a }]
        }
        let good = beacon("good", ["uuid": BeaconFixtures.shopUUID])
        let cases: [([String: Any], String)] = [
            (beacon("bad-uuid", ["uuid": "not-a-uuid"]), "uuid"),
            (beacon("big-major", ["uuid": BeaconFixtures.shopUUID, "major": 70000]), "major"),
            (beacon("bad-format", ["uuid": BeaconFixtures.shopUUID, "format": "eddystone"]), "format"),
        ]
        for (feature, word) in cases {
            let reply = try raw.request("monitor", ["features": [good, feature]])
            #expect(errorCode(reply) == "badGeoJSON", "\(reply)")
            let message = (reply["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasPrefix("feature 2: ") && message.contains(word), "\(message)")
        }
        #expect(errorCode(try raw.request("regionState", ["region": "good"])) == "unknownRegion")
        #expect(try raw.request("monitor", ["features": [good]])["ok"] as? Bool == true)
        let again = try raw.request("monitor", ["features": [good]])
        #expect((again["result"] as? [String: Any])?["unchanged"] as? Int == 1, "the identical region is kept: \(again)")
        var changed = good
        changed["properties"] = ["kind": "beacon", "uuid": BeaconFixtures.shopUUID, "major": 7]
        #expect(errorCode(try raw.request("monitor", ["features": [changed]])) == "duplicateRegion")
        let ranging = try raw.request("startRangingBeacons", ["uuid": BeaconFixtures.shopUUID, "minor": -1])
        #expect(errorCode(ranging) == "badRequest", "\(ranging)")
        let removed = try raw.request("stopMonitoring", ["regions": ["good"]])
        #expect((removed["result"] as? [String: Any])?["removed"] as? [String] == ["good"], "\(removed)")
        #expect(errorCode(try raw.request("regionState", ["region": "good"])) == "unknownRegion")
    }

    /// A geographic region's id is what the region loader reads, a number as written: one that is a beacon region's
    /// id, in the same request or monitored before, is refused, so that no id names two regions of a client.
    @Test func aCircleWhoseNumericIDIsABeaconRegionsIDIsADuplicateInTheSameRequestAndAfterIt() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: ["--beacon-source", "trace:" + BeaconFixtures.trace, "--speed", "0"])
        let raw = try RawClient.registered(daemon, as: Self.client)
        let beacon: [String: Any] = ["type": "Feature", "id": "7", "geometry": NSNull(),
                                     "properties": ["kind": "beacon", "uuid": BeaconFixtures.shopUUID]]
        let circle: [String: Any] = ["type": "Feature", "id": 7, "properties": ["radius": 50],
                                     "geometry": ["type": "Point", "coordinates": [13.4, 52.5]]]
        let both = try raw.request("monitor", ["features": [beacon, circle]])
        #expect(errorCode(both) == "duplicateRegion", "\(both)")
        #expect(errorCode(try raw.request("regionState", ["region": "7"])) == "unknownRegion", "all or none")
        #expect(try raw.request("monitor", ["features": [beacon]])["ok"] as? Bool == true)
        let after = try raw.request("monitor", ["features": [circle]])
        #expect(errorCode(after) == "duplicateRegion", "\(after)")
        let list = try #require(try raw.request("list")["result"] as? [String: Any])
        #expect((list["regions"] as? [[String: Any]] ?? []).count == 1)
    }
}
