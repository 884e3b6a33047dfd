import Foundation
import Testing

/// A region's `dwell` is sent once per stay: a daemon SIGKILLed after the dwell was sent and acknowledged, and
/// restarted while the device is still inside, sends the `exit` and no second `dwell`.
@Suite(.serialized) struct DwellRestartTests {
    @Test func aDwellSentBeforeASIGKILLIsNotSentAgainAfterTheRestart() throws {
        let daemon = DaemonProcess()
        let trace = try RegionRulesTests.line.write(to: daemon.directory)
        let lingering = StraightLineTrace.circle("lingering", properties: ["dwell": 15])
        let regions = try StraightLineTrace.regionFile([lingering], in: daemon.directory)
        try daemon.start(trace: trace, speed: 10)
        var client = try RawClient.registered(daemon, as: "org.example.dwell")
        #expect(try client.request("monitor", ["features": [lingering]])["ok"] as? Bool == true)

        let deadline = Date().addingTimeInterval(30)
        while !client.events.contains(where: { ($0["event"] as? [String: Any])?["event"] as? String == "dwell" }), Date() < deadline {
            guard let message = client.receive() else { break }
            if message["type"] as? String == "event" { client.events.append(message) }
        }
        let beforeKill = client.events.compactMap { $0["event"] as? [String: Any] }.filter { $0["region"] != nil }
        #expect(beforeKill.map { $0["event"] as? String } == ["enter", "dwell"])
        let lastSeq = try #require(client.events.compactMap { $0["seq"] as? Int }.max())
        #expect(try client.request("ack", ["seq": lastSeq])["ok"] as? Bool == true)

        daemon.stop(signal: SIGKILL)
        try daemon.start(trace: trace, speed: 10)
        client = try RawClient.registered(daemon, as: "org.example.dwell")
        client.collectEvents(until: 2)   // exit, ended
        let afterRestart = client.events.compactMap { $0["event"] as? [String: Any] }.filter { $0["region"] != nil }
        let handled = canonical(beforeKill + afterRestart)
        let replayed = try StraightLineTrace.replayed(trace, regions: regions)
        #expect(replayed.map { $0.contains("\"dwell\"") }.filter { $0 }.count == 1)
        #expect(firstDifference(handled, replayed) == nil, "enter, one dwell and the exit, as replay gives them")
    }
}
