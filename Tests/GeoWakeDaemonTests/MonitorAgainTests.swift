import Foundation
import Testing

/// A relaunched subscriber monitors its regions again: an identical region is kept as it is (no error, no new
/// `enter`), a different one under the same id is still a `duplicateRegion`.
@Suite(.serialized) struct MonitorAgainTests {
    /// Parked at the circle's centre for a minute, a fix a second.
    static let parked = StraightLineTrace(points: (0..<60).map { ($0, 0.0) })

    @Test func monitoringAnIdenticalRegionAgainKeepsItsStateAndADifferentOneIsADuplicate() throws {
        let daemon = DaemonProcess()
        try daemon.start(trace: Self.parked.write(to: daemon.directory), speed: 4)
        let client = try RawClient.registered(daemon, as: "org.example.again")
        let circle = StraightLineTrace.circle("depot", radius: 100)
        #expect(try client.request("monitor", ["features": [circle]])["ok"] as? Bool == true)
        client.collectEvents(until: 1)
        #expect((client.events.first?["event"] as? [String: Any])?["event"] as? String == "enter")

        let again = try client.request("monitor", ["features": [circle, StraightLineTrace.circle("yard", radius: 100)]])
        let result = again["result"] as? [String: Any]
        #expect(result?["added"] as? Int == 1, "\(again)")
        #expect(result?["unchanged"] as? Int == 1, "\(again)")
        let state = try client.request("regionState", ["region": "depot"])["result"] as? [String: Any]
        #expect(state?["state"] as? String == "inside", "the state was kept")
        client.collectEvents(until: 2)
        usleep(1_500_000)
        _ = try client.request("list")
        let enters = client.events.compactMap { $0["event"] as? [String: Any] }.filter { $0["event"] as? String == "enter" }
        #expect(enters.map { $0["region"] as? String } == ["depot", "yard"], "no second enter of depot")

        let wider = StraightLineTrace.circle("depot", radius: 150)
        #expect(errorCode(try client.request("monitor", ["features": [wider]])) == "duplicateRegion")
    }

    /// A monitor's features as raw text, so that the order of their keys is the test's.
    static func monitorLine(_ features: String, id: Int) -> [UInt8] {
        Array("{\"op\":\"monitor\",\"id\":\(id),\"features\":[\(features)]}\n".utf8)
    }

    @Test func aRegionWrittenWithItsKeysInAnotherOrderIsUnchangedAndOneMovedIsADuplicate() throws {
        let daemon = DaemonProcess()
        try daemon.start(trace: Self.parked.write(to: daemon.directory), speed: 4)
        let client = try RawClient.registered(daemon, as: "org.example.again.order")
        let (lon, lat) = (StraightLineTrace.longitude, StraightLineTrace.latitude)
        func reply() -> [String: Any]? {
            while let message = client.receive() {
                if message["type"] as? String != "event" { return message }
            }
            return nil
        }
        client.sendRaw(Self.monitorLine("{\"type\":\"Feature\",\"id\":\"depot\",\"properties\":{\"radius\":100},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]}}", id: 1))
        #expect((reply()?["result"] as? [String: Any])?["added"] as? Int == 1)

        client.sendRaw(Self.monitorLine("{\"geometry\":{\"coordinates\":[\(lon),\(lat)],\"type\":\"Point\"},"
            + "\"properties\":{\"radius\":100},\"id\":\"depot\",\"type\":\"Feature\"}", id: 2))
        let reordered = reply()?["result"] as? [String: Any]
        #expect(reordered?["unchanged"] as? Int == 1 && reordered?["added"] as? Int == 0, "\(String(describing: reordered))")

        client.sendRaw(Self.monitorLine("{\"geometry\":{\"coordinates\":[\(lon + 0.001),\(lat)],\"type\":\"Point\"},"
            + "\"properties\":{\"radius\":100},\"id\":\"depot\",\"type\":\"Feature\"}", id: 3))
        #expect((reply()?["error"] as? [String: Any])?["code"] as? String == "duplicateRegion")

        client.sendRaw(Self.monitorLine("{\"type\":\"Feature\",\"id\":\"yard\",\"properties\":{\"radius\":100},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[NaN,\(lat)]}}", id: 4))
        let refused = reply()
        #expect((refused?["error"] as? [String: Any])?["code"] as? String == "badJSON", "NaN is no JSON: \(String(describing: refused))")
        let list = try client.request("list")
        #expect("\(list)".contains("depot") && !"\(list)".contains("yard"))
    }
}
