import Foundation
import Testing
import TestSupport

/// Ranging through the real daemon: a live stream to the connected client, equal to `geowake replay --service ranging`.
@Suite(.serialized) struct BeaconRangingTests {
    @Test func rangingReportsArriveWhileConnectedAsReplayPrintsThem() throws {
        let regions = NSTemporaryDirectory() + "ranging-\(getpid()).geojson"
        defer { unlink(regions) }
        let region = "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\"shop\",\"geometry\":null,"
            + "\"properties\":{\"kind\":\"beacon\",\"uuid\":\"\(BeaconFixtures.shopUUID)\"}}]}"
        try Data(region.utf8).write(to: URL(fileURLWithPath: regions))
        let expected = try geowakeReplay(["--service", "ranging", "--beacons", BeaconFixtures.trace, "--regions", regions])
        #expect(expected.count > 100)

        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: ["--beacon-source", "trace:" + BeaconFixtures.trace, "--speed", "0"])
        let raw = try RawClient.registered(daemon, as: "org.example.ranging")
        let reply = try raw.request("startRangingBeacons", ["uuid": BeaconFixtures.shopUUID.uppercased()])
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        let (events, ranges) = raw.readMessages(acknowledging: false) { events, _ in events.contains { $0["state"] as? String == "ended" } }
        #expect(firstDifference(canonical(ranges), expected) == nil)
        #expect(events.allSatisfy { $0["event"] as? String == "status" }, "range reports never enter the outbox")

        let list = try #require(try raw.request("list")["result"] as? [String: Any])
        let subscriptions = list["subscriptions"] as? [[String: Any]] ?? []
        #expect(subscriptions.count == 1)
        #expect(subscriptions.first?["kind"] as? String == "ranging")
        #expect((subscriptions.first?["options"] as? [String: Any])?["uuid"] as? String == BeaconFixtures.shopUUID)
        #expect(try raw.request("stopRangingBeacons", ["uuid": BeaconFixtures.shopUUID])["ok"] as? Bool == true)
        let after = try #require(try raw.request("list")["result"] as? [String: Any])
        #expect((after["subscriptions"] as? [Any])?.isEmpty == true)
    }
}
