import Foundation
import Testing

/// Removing a region the device is inside ends it honestly: an `exit` with reason `regionRemoved`, and the region
/// is gone from the daemon.
@Suite(.serialized) struct RegionRemovalTests {
    nonisolated(unsafe) static let home: [String: Any] = ["type": "Feature", "id": "home", "properties": ["radius": 200],
                                      "geometry": ["type": "Point", "coordinates": [13.403458667, 52.5504055]]]

    @Test func stoppingARegionTheDeviceIsInsideQueuesAnExitWithReasonRegionRemoved() throws {
        let daemon = DaemonProcess()
        try daemon.start(speed: 1)   // the drive starts parked inside "home" for about a minute
        let client = try RawClient.registered(daemon, as: "org.example.removal")
        #expect(try client.request("monitor", ["features": [Self.home]])["ok"] as? Bool == true)
        client.collectEvents(until: 1)
        #expect((client.events.first?["event"] as? [String: Any])?["event"] as? String == "enter")
        let state = try client.request("regionState", ["region": "home"])
        #expect((state["result"] as? [String: Any])?["state"] as? String == "inside")

        #expect(try client.request("stopMonitoring", ["regions": ["home"]])["ok"] as? Bool == true)
        client.collectEvents(until: 2)
        let exit = client.events.last?["event"] as? [String: Any]
        #expect(exit?["event"] as? String == "exit")
        #expect(exit?["region"] as? String == "home")
        #expect(exit?["reason"] as? String == "regionRemoved")
        #expect(errorCode(try client.request("regionState", ["region": "home"])) == "unknownRegion")
    }
}
