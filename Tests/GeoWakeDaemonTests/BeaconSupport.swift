import Foundation
import Testing
import TestSupport

/// The recorded beacon fixtures and what `geowake replay` prints for them, for the beacon daemon tests.
enum BeaconFixtures {
    static let trace = DaemonProcess.root + "/Tests/Fixtures/beacons/shop.jsonl"
    static let regionFile = DaemonProcess.root + "/Tests/Fixtures/beacons/shop-regions.geojson"
    static let shopUUID = "f7826da6-4fa2-4e98-8024-bc5b71e0893e"

    /// The fixture's features as `monitor` takes them inline (beacon regions and one circle).
    static func features() throws -> [Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: regionFile))) as? [String: Any]
        return try #require(object?["features"] as? [Any])
    }

    /// Beacon-region monitoring of the fixture as `geowake replay --beacons` reports it.
    static func replayedRegionEvents() throws -> [String] {
        try geowakeReplay(["--beacons", trace, "--regions", regionFile])
    }
}

extension RawClient {
    /// Reads messages until `done` says enough or `seconds` passed; returns the events' inner objects with their
    /// `seq` (acknowledging each) and the `ranging` messages' objects.
    func readMessages(within seconds: Double = 20, acknowledging: Bool = true,
                      until done: (_ events: [[String: Any]], _ ranges: [[String: Any]]) -> Bool = { _, _ in false })
        -> (events: [[String: Any]], ranges: [[String: Any]]) {
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        defer {
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        let deadline = Date().addingTimeInterval(seconds)
        var events: [[String: Any]] = [], ranges: [[String: Any]] = []
        while !done(events, ranges), Date() < deadline {
            guard let message = receive() else { continue }
            switch message["type"] as? String {
            case "event":
                guard var event = message["event"] as? [String: Any], let seq = message["seq"] as? Int else { continue }
                event["seq"] = seq
                events.append(event)
                if acknowledging { sendRaw(Array("{\"id\":\"ack\",\"op\":\"ack\",\"seq\":\(seq)}\n".utf8)) }
            case "ranging":
                if let range = message["event"] as? [String: Any] { ranges.append(range) }
            default:
                break
            }
        }
        return (events, ranges)
    }
}

/// Region events only (no status events), as canonical lines.
func regionEventLines(_ events: [[String: Any]]) -> [String] {
    canonical(events.filter { ["enter", "exit"].contains($0["event"] as? String ?? "") })
}
