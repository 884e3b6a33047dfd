import GeoWakeCore
import GeoWakeProtocol
import Testing

/// The typed replies both ends share: what the daemon writes is what docs/protocol.md shows, the library reads it back
/// as the same value, and a reply without a field the protocol promises reads as none.
@Suite struct ProtocolReplyTests {
    @Test func eachReplyReadsBackAsWritten() {
        #expect(HelloReply(fields: HelloReply(version: 1, uid: 1000).fields) == HelloReply(version: 1, uid: 1000))
        #expect(AckReply(fields: AckReply(acked: 42, pending: 3).fields) == AckReply(acked: 42, pending: 3))
        #expect(MonitorReply(fields: MonitorReply(added: 7, unchanged: 2).fields) == MonitorReply(added: 7, unchanged: 2))
        #expect(StopMonitoringReply(fields: StopMonitoringReply(removed: ["a", "b"]).fields) == StopMonitoringReply(removed: ["a", "b"]))
        let task = BackgroundTaskReply(task: 3, budgetLeft: 9.5)
        #expect(BackgroundTaskReply(fields: task.fields) == task)
        let fetch = BackgroundFetchReply(minimumInterval: 900, interval: 1800, running: false, fetches: 4, nextIn: 12.5, lastResult: .noData)
        #expect(BackgroundFetchReply(fields: fetch.fields) == fetch)
        let list = RegionListReply(subscriptions: [.init(kind: "standard", options: ["distance": 10]), .init(kind: "regions")],
                                   regions: [RegionStateReply(region: "a", state: .inside, since: "2026-11-26T17:00:00.000Z"),
                                             RegionStateReply(region: "b", state: .unknown)], more: true)
        #expect(RegionListReply(fields: list.fields) == list)
        let beacon = RegionStateReply(region: "door", state: .inside, since: "2026-11-26T10:00:00.000Z",
                                      beacon: BeaconIdentity(uuid: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", major: 1, minor: nil),
                                      beaconFormat: "ibeacon")
        #expect(RegionStateReply(fields: beacon.fields) == beacon)
    }

    @Test func theWireShapesAreTheDocumentedOnes() {
        #expect(HelloReply(version: 1, uid: 0).fields == ["protocol": 1, "uid": 0])
        #expect(MonitorReply(added: 5).fields == ["added": 5])
        #expect(MonitorReply(added: 0, unchanged: 5).fields == ["added": 0, "unchanged": 5])
        #expect(BackgroundTaskReply(task: 1, budgetLeft: nil).fields == ["task": 1, "budgetLeft": .null])
        #expect(BackgroundFetchReply(minimumInterval: 60, interval: 60, running: true, fetches: 1, nextIn: nil, lastResult: nil).fields
            == ["minimumInterval": 60, "interval": 60, "running": true, "fetches": 1])
        #expect(RegionStateReply(region: "r", state: .unknown).fields == ["region": "r", "state": "unknown"])
        #expect(RegionListReply(subscriptions: [.init(kind: "regions")], regions: []).fields
            == ["subscriptions": [["kind": "regions", "options": [:]]], "regions": []])
        // docs/protocol.md's `status` example, and a client's app fields beside its own.
        let tracker = ClientStatus(client: "org.example.tracker", connected: true, disabled: false, pending: 0, lastSeq: 17, regions: 2,
                                   subscriptions: ["regions", "standard"])
        let status = StatusReply(source: .init(description: "trace:/path/to/trace.nmea", state: "running",
                                               lastFix: .init(latitude: 48.1, longitude: 11.5, time: "…", horizontalAccuracy: 5)),
                                 clients: [tracker])
        #expect(status.fields == ["source": ["description": "trace:/path/to/trace.nmea", "state": "running",
                                             "lastFix": ["time": "…", "lat": 48.1, "lon": 11.5, "hAcc": 5]],
                                  "clients": [["client": "org.example.tracker", "connected": true, "disabled": false, "pending": 0,
                                               "lastSeq": 17, "regions": 2, "subscriptions": ["regions", "standard"]]]])
        var launched = tracker
        launched.app = AppStatus(state: "background", pid: 4242, budgetLeft: 9.5, lastLaunchReason: .region, crashes: 1)
        #expect(launched.fields["app"] == "background" && launched.fields["pid"] == 4242 && launched.fields["budgetLeft"] == 9.5)
        #expect(launched.fields["lastLaunchReason"] == "region" && launched.fields["client"] == "org.example.tracker")
        #expect(launched.fields["backoff"] == nil && launched.fields["backgroundFetch"] == nil)
        #expect(RegionStateReply(region: "b", state: .outside, beacon: BeaconIdentity(uuid: "U", major: nil, minor: 7)).fields
            == ["region": "b", "state": "outside", "beacon": ["uuid": "U", "minor": 7]])
    }

    @Test func aReplyWithoutAPromisedFieldReadsAsNone() {
        #expect(HelloReply(fields: ["protocol": 1]) == nil)
        #expect(BackgroundTaskReply(fields: ["budgetLeft": 3]) == nil)
        #expect(BackgroundFetchReply(fields: ["interval": 60]) == nil)
        #expect(RegionStateReply(fields: ["region": "r", "state": "sideways"]) == nil)
        #expect(StopMonitoringReply(fields: ["removed": ["a", 1]]) == nil)
        #expect(RegionListReply(fields: ["subscriptions": [], "regions": [["region": "r"]]]) == nil)
        #expect(RegionListReply(fields: ["regions": []]) == nil)
    }
}
