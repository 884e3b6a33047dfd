import GeoWakeCore
import Geofencing
import JSONLines
import LocationServices
import RegionIndex
import Regions
import Traces

/// What each client must get: the event lines `geowake replay` prints for its regions and its significant-change
/// service over the same trace file, through the same drivers (`ServiceReplay` over `RegionMonitor` and
/// `SignificantChangeDetector`), in the order the daemon queues them for one fix (regions first).
enum ReplayOracle {
    static func expectedEvents(trace path: String, client: SimulationScenario.Client,
                               rules: RegionMonitorConfiguration) throws -> [String] {
        var fixes: [Fix] = []
        _ = try TraceFile.read(path) { fixes.append($0) }
        let collection = Array(("{\"type\":\"FeatureCollection\",\"features\":[" + client.regions.joined(separator: ",") + "]}").utf8)
        let store = try collection.withUnsafeBytes { try RegionLoader.load(bytes: $0, name: "oracle") }
        var regions = ServiceReplay(RegionMonitor(regions: RegionIndex(store), configuration: rules))
        var significant = client.significant.map {
            ServiceReplay(SignificantChangeDetector(configuration: .init(distance: $0.distance, interval: $0.interval)))
        }
        var writer = JSONLineWriter(reservingCapacity: 256)
        var lines: [String] = []
        func take() {
            lines.append(String(decoding: writer.bytes.dropLast(), as: UTF8.self))
            writer.removeAll()
        }
        for fix in fixes {
            if !client.regions.isEmpty {
                regions.feed(fix) { events in
                    for event in events {
                        writer.regionEventLine(event)
                        take()
                    }
                }
            }
            significant?.feed(fix) { changes in
                for change in changes {
                    writer.fixEventLine("significant", change.fix)
                    take()
                }
            }
        }
        return lines
    }
}
