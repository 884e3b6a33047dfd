import Foundation
import Testing

/// A subscriber that arrives after the trace was replayed to its end hears `ended` at once; `--restart-trace`
/// replays it from its first fix.
@Suite(.serialized) struct TraceEndedTests {
    static let line = StraightLineTrace(points: (0..<10).map { ($0, 10.0 * Double($0)) })

    static func statusEvents(_ client: RawClient) -> [String] {
        client.events.compactMap { $0["event"] as? [String: Any] }.filter { $0["event"] as? String == "status" }
            .compactMap { $0["state"] as? String }
    }

    @Test func aSubscriberArrivingAfterTheTraceEndedHearsSoAtOnceAndRestartTraceReplaysIt() throws {
        let daemon = DaemonProcess()
        let trace = try Self.line.write(to: daemon.directory)
        try daemon.start(trace: trace, speed: 0)
        let first = try RawClient.registered(daemon, as: "org.example.late")
        #expect(try first.request("startStandard")["ok"] as? Bool == true)
        first.collectEvents(until: 11)
        #expect(Self.statusEvents(first) == ["ended"])
        for event in first.events { _ = try first.request("ack", ["seq": event["seq"] as? Int ?? 0]) }
        daemon.stop(signal: SIGTERM)

        try daemon.start(trace: trace, speed: 0)
        let late = try RawClient.registered(daemon, as: "org.example.late")
        let status = try late.request("status")
        #expect(((status["result"] as? [String: Any])?["source"] as? [String: Any])?["state"] as? String == "ended")
        #expect(try late.request("startStandard")["ok"] as? Bool == true)
        #expect(try late.request("monitor", ["features": [StraightLineTrace.circle("c")]])["ok"] as? Bool == true)
        late.collectEvents(until: 1)
        _ = try late.request("list")
        #expect(Self.statusEvents(late) == ["ended"], "told once, at once, though it subscribed twice")
        for event in late.events { _ = try late.request("ack", ["seq": event["seq"] as? Int ?? 0]) }
        daemon.stop(signal: SIGTERM)

        try daemon.start(trace: trace, speed: 0, options: ["--restart-trace"])
        let again = try RawClient.registered(daemon, as: "org.example.late")
        again.collectEvents(until: 12)   // 10 locations, the enter of the circle the line stays in, ended
        let kinds = again.events.compactMap { ($0["event"] as? [String: Any])?["event"] as? String }
        #expect(kinds.filter { $0 == "location" }.count == 10, "the trace replayed from its first fix: \(kinds)")
        #expect(Self.statusEvents(again) == ["ended"])
    }
}
