import ArgumentParser
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

/// `geowake bench monitor-add --regions R`: what adding regions to a running monitor costs. The monitor
/// runs over the loaded regions (a fix has decided their states), then `--add` counts of new circles are
/// added, each count to a fresh monitor that owns its index, timed alone; the median of `--repeat` passes
/// is reported.
struct BenchMonitorAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor-add",
        abstract: "Time adding regions to a region monitor over a large index."
    )

    @Option(help: "Regions file or directory the monitor starts with.") var regions: String
    @Option(help: "How many regions to add, comma-separated.") var add: String = "1,10000"
    @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Passes per count; the median is reported.") var passes: Int = 3

    private var counts: [Int] { add.split(separator: ",").compactMap { Int($0) } }

    func validate() throws {
        guard passes >= 1 else { throw ValidationError("--repeat must be at least 1") }
        guard !counts.isEmpty, counts.count == add.split(separator: ",").count, counts.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--add takes counts >= 1, comma-separated")
        }
    }

    func run() throws {
        let store = try RegionLoader.load(regions)
        let start = Fix(time: Timestamp(millisecondsSince1970: 1_717_390_800_000),
                        coordinate: Coordinate(latitude: 52.52, longitude: 13.40))
        for count in counts {
            let added = Self.circles(count)
            var times: [Double] = []
            for _ in 0..<passes {
                var monitor = RegionMonitor(regions: RegionIndex(store))
                _ = monitor.update(with: start, at: start.time!)
                // The index still shares arrays with `store`: the first change copies them (tens of ms at a
                // million regions), which a daemon that owns its index never pays. Paid here, untimed.
                try monitor.add(Region(id: "warm-up", shape: .circle(center: start.coordinate, radius: 10)))
                let t0 = monotonicSeconds()
                for region in added { try monitor.add(region) }
                times.append(monotonicSeconds() - t0)
            }
            let median = times.sorted()[times.count / 2]
            print("{\"bench\":\"monitor-add\",\"regions\":\(store.liveCount),\"added\":\(count),\"seconds\":\(median),"
                + "\"microseconds_per_region\":\(median / Double(count) * 1e6)}")
        }
    }

    /// Circles of 50 to 500 m scattered over Berlin, ids `added-N` (the bench data's are `rNNNNNN`).
    static func circles(_ count: Int) -> [Region] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        return (0..<count).map { k in
            let centre = Coordinate(latitude: 52.3 + 0.4 * next(), longitude: 13.1 + 0.6 * next())
            return Region(id: "added-\(k)", shape: .circle(center: centre, radius: 50 + 450 * next()))
        }
    }
}
