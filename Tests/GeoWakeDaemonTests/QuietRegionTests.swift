import Foundation
import Testing

/// A region with `notifyOnEntry` false: its stored state follows the entry that sends no event, so `regionState`
/// answers inside at once and a daemon killed while inside still sends the later `exit`, with no `enter`.
@Suite(.serialized) struct QuietRegionTests {
    @Test func aQuietEntryIsStoredAtOnceAndAKilledDaemonStillSendsTheExitOnly() throws {
        let daemon = DaemonProcess()
        let trace = try RegionRulesTests.line.write(to: daemon.directory)
        let quiet = StraightLineTrace.circle("quiet", properties: ["notifyOnEntry": false])
        let regions = try StraightLineTrace.regionFile([quiet], in: daemon.directory)
        try daemon.start(trace: trace, speed: 20)
        var client = try RawClient.registered(daemon, as: "org.example.quiet")
        #expect(try client.request("monitor", ["features": [quiet]])["ok"] as? Bool == true)

        var state: String?
        let deadline = Date().addingTimeInterval(20)
        while state != "inside" && Date() < deadline {
            state = (try client.request("regionState", ["region": "quiet"])["result"] as? [String: Any])?["state"] as? String
            usleep(20_000)
        }
        #expect(state == "inside", "regionState says inside while the device waits in the region")
        #expect(client.events.isEmpty, "no event for the quiet entry: \(client.events)")

        daemon.stop(signal: SIGKILL)
        try daemon.start(trace: trace, speed: 20)
        client = try RawClient.registered(daemon, as: "org.example.quiet")
        client.collectEvents(until: 2)   // exit, ended
        let handled = canonical(client.events.compactMap { $0["event"] as? [String: Any] }.filter { $0["region"] != nil })
        let replayed = try StraightLineTrace.replayed(trace, regions: regions)
        #expect(replayed.count == 1 && replayed.first?.contains("\"exit\"") == true)
        #expect(firstDifference(handled, replayed) == nil, "the exit and nothing else, as replay gives it")
    }
}
