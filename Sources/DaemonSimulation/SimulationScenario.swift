import Foundation
import GeoWakeCore

/// What a seed's world is made of: a drive, regions along it, and the clients that subscribe. All of it comes from
/// the seed, so `geowake-simulate --seed N` rebuilds the same world.
struct SimulationScenario {
    struct Client {
        var id: String
        /// Feature texts of the regions it monitors.
        var regions: [String]
        /// Significant-change options (metres, seconds), nil for none.
        var significant: (distance: Double, interval: Double)?
        var exitsOnSuspend: Bool
    }

    var fixes: [(time: Double, latitude: Double, longitude: Double)]
    var clients: [Client]
    var durabilityFull: Bool
    var start: Double { fixes[0].time }

    init(fixes: [(time: Double, latitude: Double, longitude: Double)], clients: [Client], durabilityFull: Bool = false) {
        self.fixes = fixes
        self.clients = clients
        self.durabilityFull = durabilityFull
    }

    init(random: inout SeededRandom) {
        let count = Int.random(in: 60...180, using: &random)
        var latitude = 52.52, longitude = 13.40
        var heading = Double.random(in: 0..<(2 * .pi), using: &random)
        let start = 1_700_000_000.0 + Double(Int.random(in: 0..<1_000_000, using: &random))
        var fixes: [(Double, Double, Double)] = []
        for i in 0..<count {
            fixes.append((start + Double(i), latitude, longitude))
            let speed = Double.random(in: 0...25, using: &random)
            heading += Double.random(in: -0.4...0.4, using: &random)
            latitude += speed * cos(heading) / 111_320
            longitude += speed * sin(heading) / (111_320 * cos(latitude * .pi / 180))
        }
        self.fixes = fixes
        var regions: [String] = []
        for i in 0..<Int.random(in: 3...8, using: &random) {
            let at = fixes[Int.random(in: 0..<count, using: &random)]
            let radius = Double(Int.random(in: 40...400, using: &random))
            let shiftNorth = Double.random(in: -300...300, using: &random) / 111_320
            regions.append(#"{"type":"Feature","id":"r\#(i)","properties":{"radius":\#(radius)},"geometry":{"type":"Point","coordinates":[\#(at.2),\#(at.1 + shiftNorth)]}}"#)
        }
        clients = (0..<Int.random(in: 1...3, using: &random)).map { i in
            Client(id: "sim.client\(i)", regions: regions.filter { _ in random.chance(0.6) },
                   significant: random.chance(0.5) ? (Double(Int.random(in: 50...400, using: &random)), Double(Int.random(in: 5...60, using: &random))) : nil,
                   exitsOnSuspend: random.chance(0.3))
        }
        durabilityFull = random.chance(0.25)
    }

    /// The drive as gpsd JSON reports, the trace the daemon replays.
    var gpsdJSON: String {
        fixes.map { fix in
            #"{"class":"TPV","mode":2,"time":"\#(Self.iso8601(fix.time))","lat":\#(fix.latitude),"lon":\#(fix.longitude),"eph":5.0}"#
        }.joined(separator: "\n") + "\n"
    }

    static func iso8601(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        // Not String(format:): every seed writes its trace, and Foundation's formatting was a twentieth of a short seed.
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).000Z"
    }
}
