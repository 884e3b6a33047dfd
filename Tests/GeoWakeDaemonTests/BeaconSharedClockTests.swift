import Foundation
import Testing

/// A beacon trace and a fix trace given together replay on one clock: a beacon event falls between the fixes of its time.
@Suite(.serialized) struct BeaconSharedClockTests {
    @Test func aBeaconTraceReplaysOnTheFixTracesClock() throws {
        let daemon = DaemonProcess()
        // Fixes every 10 s from 10:00:30; the till's beacon is first heard at 10:01:00.3. On one clock its enter comes
        // between the 10:01:00 and 10:01:10 fixes; on a clock of its own (from 10:00:00) it would come 3 s later.
        let fixes = daemon.directory + "/fixes.json"
        let lines = (0..<10).map { k in
            let second = 30 + 10 * k
            return #"{"class":"TPV","mode":3,"time":"2026-11-23T10:0\#(second / 60):\#(String(format: "%02d", second % 60)).000Z","lat":52.5,"lon":13.4,"eph":5.0}"#
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: fixes))
        try daemon.start(source: "trace:" + fixes, options: ["--speed", "10", "--beacon-source", "trace:" + BeaconFixtures.trace])
        let raw = try RawClient(daemon.socket)
        _ = raw.receive()
        let till: [String: Any] = ["type": "Feature", "id": "till", "geometry": NSNull(),
                                   "properties": ["kind": "beacon", "uuid": "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6", "major": 7, "minor": 42]]
        var batch: [UInt8] = []
        for (id, request) in [["op": "hello", "protocol": 1], ["op": "register", "client": "org.example.clock"],
                              ["op": "startStandard"], ["op": "monitor", "features": [till]]].enumerated() {
            var request = request
            request["id"] = id + 1
            batch += Array(try JSONSerialization.data(withJSONObject: request)) + [10]
        }
        raw.sendRaw(batch)   // one write: the daemon takes both subscriptions in one turn, so both traces start together
        let (events, _) = raw.readMessages(within: 20, acknowledging: false) { events, _ in
            events.contains { $0["time"] as? String == "2026-11-23T10:01:30.000Z" }
        }
        let order = events.compactMap { event -> String? in
            switch event["event"] as? String {
            case "location": (event["time"] as? String).map { String($0.dropFirst(14).prefix(5)) }
            case "enter": "enter " + (event["region"] as? String ?? "")
            default: nil
            }
        }
        #expect(order == ["00:30", "00:40", "00:50", "01:00", "enter till", "01:10", "01:20", "01:30"], "\(order)")
    }
}
