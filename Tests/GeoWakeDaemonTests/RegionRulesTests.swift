import Foundation
import Testing

/// Region rules chosen per client in `monitor`: each client's events are `geowake replay`'s with its rules, the
/// rules survive a restart, and bad values get an error naming the field.
@Suite(.serialized) struct RegionRulesTests {
    /// Ten seconds parked 600 m west (time for every client to monitor), in at 10 m/s, thirty seconds at the centre,
    /// out east at 10 m/s to 600 m: the exit from a 95 m circle is at 100 m (t = 110) with hysteresis 0, and at
    /// 250 m (t = 125) with hysteresis 150.
    static let line = StraightLineTrace(points:
        (0..<10).map { ($0, -600.0) } + (10...70).map { ($0, -600.0 + 10 * Double($0 - 10)) }
            + (71..<100).map { ($0, 0.0) } + (100...160).map { ($0, 10 * Double($0 - 100)) })

    /// Region events of one client as canonical lines.
    static func regionEvents(_ client: RawClient) -> [String] {
        canonical(client.events.compactMap { $0["event"] as? [String: Any] }.filter { ["enter", "exit"].contains($0["event"] as? String) })
    }

    static func regionOptions(_ client: RawClient) throws -> [String: Any]? {
        let result = try client.request("list")["result"] as? [String: Any]
        let subscriptions = result?["subscriptions"] as? [[String: Any]] ?? []
        return subscriptions.first { $0["kind"] as? String == "regions" }?["options"] as? [String: Any]
    }

    /// A daemon replaying the line at 20 times real time, a 95 m circle round its centre and its region file.
    static func replayingLine() throws -> (DaemonProcess, trace: String, circle: [String: Any], regions: String) {
        let daemon = DaemonProcess()
        let trace = try line.write(to: daemon.directory)
        let circle = StraightLineTrace.circle("circle", radius: 95)
        let regions = try StraightLineTrace.regionFile([circle], in: daemon.directory)
        try daemon.start(trace: trace, speed: 20)
        return (daemon, trace, circle, regions)
    }

    @Test func twoClientsWithDifferentHysteresisLeaveTheSameCircleAtTheirOwnTimesAsReplayDoesAcrossARestart() throws {
        let (daemon, trace, circle, regions) = try Self.replayingLine()
        var near = try RawClient.registered(daemon, as: "org.example.near")
        var far = try RawClient.registered(daemon, as: "org.example.far")
        #expect(try near.request("monitor", ["features": [circle]])["ok"] as? Bool == true)
        #expect(try far.request("monitor", ["features": [circle], "hysteresis": 150])["ok"] as? Bool == true)
        #expect(try Self.regionOptions(far)?["hysteresis"] as? Double == 150)
        #expect(try Self.regionOptions(near)?["hysteresis"] as? Double == 0)

        // Both inside: acknowledge the enters and kill the daemon while the device waits at the centre.
        for client in [near, far] {
            client.collectEvents(until: 1)
            let seq = try #require(client.events.last?["seq"] as? Int)
            _ = try client.request("ack", ["seq": seq])
        }
        daemon.stop(signal: SIGKILL)
        try daemon.start(trace: trace, speed: 20)
        let before = (near.events, far.events)
        near = try RawClient.registered(daemon, as: "org.example.near")
        far = try RawClient.registered(daemon, as: "org.example.far")
        #expect(try Self.regionOptions(far)?["hysteresis"] as? Double == 150, "the rules survive the restart")
        near.events = before.0
        far.events = before.1
        for client in [near, far] { client.collectEvents(until: 3) }   // enter, exit, ended

        let nearEvents = Self.regionEvents(near), farEvents = Self.regionEvents(far)
        #expect(firstDifference(nearEvents, try StraightLineTrace.replayed(trace, regions: regions, ["--hysteresis", "0"])) == nil)
        #expect(firstDifference(farEvents, try StraightLineTrace.replayed(trace, regions: regions, ["--hysteresis", "150"])) == nil)
        #expect(nearEvents.count == 2 && farEvents.count == 2)
        #expect(nearEvents.last?.contains(StraightLineTrace.time(110)) == true, "\(nearEvents)")
        #expect(farEvents.last?.contains(StraightLineTrace.time(125)) == true, "\(farEvents)")
    }

    @Test func rulesChangedWhileInsideKeepTheRegionInsideWithNoEventAndTheExitFollowsTheNewRules() throws {
        let (daemon, trace, circle, regions) = try Self.replayingLine()
        let client = try RawClient.registered(daemon, as: "org.example.changer")
        #expect(try client.request("monitor", ["features": [circle]])["ok"] as? Bool == true)
        client.collectEvents(until: 1)
        #expect(try client.request("monitor", ["features": [], "hysteresis": 150])["ok"] as? Bool == true)
        let state = try client.request("regionState", ["region": "circle"])["result"] as? [String: Any]
        #expect(state?["state"] as? String == "inside")
        #expect(state?["since"] as? String == StraightLineTrace.time(61), "the state moved with its instant")
        client.collectEvents(until: 3)   // enter, exit, ended
        let handled = Self.regionEvents(client)
        #expect(firstDifference(handled, try StraightLineTrace.replayed(trace, regions: regions, ["--hysteresis", "150"])) == nil)
        #expect(handled.last?.contains(StraightLineTrace.time(125)) == true, "\(handled)")
    }

    @Test func badRegionRulesGetABadRequestNamingTheFieldAndAddNothing() throws {
        let daemon = DaemonProcess()
        try daemon.start(trace: Self.line.write(to: daemon.directory), speed: 1)
        let client = try RawClient.registered(daemon, as: "org.example.rules")
        let circle = [StraightLineTrace.circle("circle")]
        for (field, value) in [("hysteresis", -1), ("hysteresis", "10"), ("debounce", 86_401), ("hysteresis", 1e300),
                               ("accuracyGating", 1)] as [(String, Any)] {
            let reply = try client.request("monitor", ["features": circle, field: value])
            #expect(errorCode(reply) == "badRequest", "\(field): \(value)")
            let message = (reply["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("\"\(field)\""), "\(message)")
        }
        #expect(try Self.regionOptions(client) == nil, "no region was added")
        let reply = try client.request("monitor", ["features": circle, "debounce": 86_400, "accuracyGating": false])
        #expect(reply["ok"] as? Bool == true)
        let options = try #require(try Self.regionOptions(client))
        #expect(options["debounce"] as? Double == 86_400 && options["accuracyGating"] as? Bool == false)
        #expect(options["hysteresis"] as? Double == 0, "a field left out follows geowaked's default")
        let back = try client.request("monitor", ["features": [], "debounce": NSNull(), "accuracyGating": NSNull()])
        #expect(back["ok"] as? Bool == true)
        let defaults = try #require(try Self.regionOptions(client))
        #expect(defaults["debounce"] as? Double == 0 && defaults["accuracyGating"] as? Bool == true, "null follows the flag")
    }

    @Test func rulesSentWithBeaconAndGeographicFeaturesInOneMonitorApply() throws {
        let daemon = DaemonProcess()
        try daemon.start(trace: Self.line.write(to: daemon.directory), speed: 1)
        let client = try RawClient.registered(daemon, as: "org.example.rules")
        let beacon: [String: Any] = ["type": "Feature", "id": "till", "geometry": NSNull(),
                                     "properties": ["kind": "beacon", "uuid": BeaconFixtures.shopUUID]]
        let reply = try client.request("monitor", ["features": [beacon, StraightLineTrace.circle("circle")], "hysteresis": 150])
        #expect(reply["ok"] as? Bool == true)
        #expect((reply["result"] as? [String: Any])?["added"] as? Int == 2)
        #expect(try Self.regionOptions(client)?["hysteresis"] as? Double == 150)
    }
}
