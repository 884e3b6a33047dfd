import Foundation
import Testing

/// The daemon runs each service through `replay`'s driver with `replay`'s options: over the same fixes a client gets,
/// event for event, what `geowake replay` prints, for every service and region rule set.
@Suite(.serialized) struct ServiceParityTests {
    static let trace = DaemonProcess.root + "/traces/berlin-drive.nmea"
    static let regionFile = DaemonProcess.root + "/regions/berlin-1k.geojson"

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// The start request's op and fields (as JSON text, so the case stays Sendable).
        var op: String
        var fields: String
        var replay: [String]
        var kinds: Set<String>
        /// geowaked's own options.
        var daemon: [String] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "standard with distance filter, accuracy and minimum interval", op: "startStandard",
             fields: #"{"distanceFilter":40,"desiredAccuracy":15,"minimumInterval":8}"#,
             replay: ["--service", "standard", "--distance-filter", "40", "--desired-accuracy", "15", "--minimum-interval", "8"],
             kinds: ["location"]),
        Case(name: "significant change at 300 m and 60 s", op: "startSignificant", fields: #"{"distance":300,"interval":60}"#,
             replay: ["--service", "significant", "--significant-distance", "300", "--significant-interval", "60"],
             kinds: ["significant"]),
        Case(name: "visits of 60 m for 30 s", op: "startVisits", fields: #"{"radius":60,"minimumDuration":30}"#,
             replay: ["--service", "visits", "--visit-radius", "60", "--visit-duration", "30"], kinds: ["visit"]),
        Case(name: "regions with hysteresis and debounce", op: "monitor",
             fields: #"{"file":"\#(regionFile)","hysteresis":25,"debounce":4}"#,
             replay: ["--regions", regionFile, "--hysteresis", "25", "--debounce", "4"], kinds: ["enter", "exit", "dwell"]),
        Case(name: "regions without accuracy gating, with segment crossing", op: "monitor",
             fields: #"{"file":"\#(regionFile)","accuracyGating":false,"segmentCrossing":true}"#,
             replay: ["--regions", regionFile, "--no-accuracy-gating", "--segment-crossing"], kinds: ["enter", "exit", "dwell"]),
        // Group commit: every fix's events wait for their loop turn's one sync, and then all of them go out.
        Case(name: "regions with hysteresis and debounce under --durability full", op: "monitor",
             fields: #"{"file":"\#(regionFile)","hysteresis":25,"debounce":4}"#,
             replay: ["--regions", regionFile, "--hysteresis", "25", "--debounce", "4"], kinds: ["enter", "exit", "dwell"],
             daemon: ["--durability", "full"]),
    ]

    /// Every event the client receives until the trace's `ended` status.
    static func daemonEvents(_ testCase: Case) throws -> [[String: Any]] {
        let daemon = DaemonProcess()
        try daemon.start(trace: trace, speed: 0, options: testCase.daemon)
        let raw = try RawClient(daemon.socket)
        _ = raw.receive()
        var start = try #require(try JSONSerialization.jsonObject(with: Data(testCase.fields.utf8)) as? [String: Any])
        start["op"] = testCase.op
        var batch: [UInt8] = []
        // One write, so the daemon takes the subscription before the trace's first fix.
        for (id, request) in [["op": "hello", "protocol": 1], ["op": "register", "client": "org.example.parity"], start].enumerated() {
            var request = request
            request["id"] = id + 1
            batch += Array(try JSONSerialization.data(withJSONObject: request)) + [10]
        }
        raw.sendRaw(batch)
        var events: [[String: Any]] = []
        var replies = 0
        while let message = raw.receive() {
            if message["type"] as? String == "reply" {
                #expect(message["ok"] as? Bool == true, "\(message)")
                replies += 1
            }
            guard message["type"] as? String == "event", let event = message["event"] as? [String: Any] else { continue }
            if event["event"] as? String == "status", event["state"] as? String == "ended" { break }
            events.append(event)
        }
        #expect(replies == 3, "log: \(daemon.log)")
        return events
    }

    @Test(arguments: cases)
    func aClientGetsTheEventsGeowakeReplayPrintsWithTheSameOptions(_ testCase: Case) throws {
        let reference = try geowakeReplay([Self.trace] + testCase.replay)
        let events = try Self.daemonEvents(testCase)
        let handled = canonical(events.filter { testCase.kinds.contains($0["event"] as? String ?? "") })
        #expect(!reference.isEmpty, "the case produces events")
        #expect(firstDifference(handled, reference) == nil)
    }

    /// Parked 600 m west of the line's circle for a minute: one fix a second, none of them a significant change.
    static let parked = StraightLineTrace(points: (0..<60).map { ($0, -600.0) })

    @Test func startingAServiceAgainWithTheSameOptionsKeepsItsStateAndOtherOptionsRestartIt() throws {
        let daemon = DaemonProcess()
        try daemon.start(trace: Self.parked.write(to: daemon.directory), speed: 1)
        let client = try RawClient.registered(daemon, as: "org.example.again")
        #expect(try client.request("startSignificant", ["distance": 300, "interval": 60])["ok"] as? Bool == true)
        client.collectEvents(until: 1)
        #expect(client.events.count == 1, "the first fix is a significant change")
        // A relaunched subscriber starts its services again: the detector keeps its last report.
        #expect(try client.request("startSignificant", ["distance": 300.0, "interval": 60, "unknown": 1])["ok"] as? Bool == true)
        usleep(2_500_000)
        _ = try client.request("list")
        #expect(client.events.count == 1, "no new report after starting again with the same options")
        #expect(try client.request("startSignificant", ["distance": 301, "interval": 60])["ok"] as? Bool == true)
        client.collectEvents(until: 2)
        #expect(client.events.count == 2, "other options start the detector afresh: its first fix is reported")
        let bad = try client.request("startStandard", ["minimumInterval": -1])
        #expect(errorCode(bad) == "badRequest")
        let message = (bad["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("minimum interval"), "the service's own sentence: \(message)")
    }
}
