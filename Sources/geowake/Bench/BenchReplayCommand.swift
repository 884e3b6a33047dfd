import ArgumentParser
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions
import JSONLines
import Traces

/// `geowake bench replay --regions R TRACE`: the region monitor's own cost per fix, apart from loading and
/// parsing. The trace is parsed into memory first, then replayed `--repeat` times through a fresh monitor
/// with every event formatted as `geowake replay` would print it (into a buffer that is never written).
struct BenchReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Time loading, trace parsing and the region monitor (with event formatting) separately."
    )

    @Argument(help: "The trace file.") var trace: String
    @Option(help: "Regions file or directory.") var regions: String
    @Flag(help: "Replay with hysteresis 0, debounce 0 and no accuracy gating.") var exact = false
    @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Monitor passes; the median is reported.") var passes: Int = 3

    func validate() throws {
        guard passes >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        let t0 = monotonicSeconds()
        let store: RegionStore
        do { store = try RegionLoader.load(regions) } catch { throw CommandError(error.description) }
        let index = RegionIndex(store)
        let t1 = monotonicSeconds()
        var fixes: [Fix] = []
        do { _ = try TraceFile.read(trace) { if $0.time != nil { fixes.append($0) } } } catch let error as TraceError {
            throw CommandError(error.description)
        }
        let t2 = monotonicSeconds()

        let configuration: RegionMonitorConfiguration = exact ? .exact() : RegionMonitorConfiguration()
        var times: [Double] = [], cpuTimes: [Double] = []
        var eventCount = 0, activeMax = 0, bytes = 0
        for _ in 0..<passes {
            var monitor = RegionMonitor(regions: index, configuration: configuration)
            var events: [RegionEvent] = []
            var writer = JSONLineWriter(reservingCapacity: 1 << 17)
            eventCount = 0
            activeMax = 0
            bytes = 0
            let start = monotonicSeconds(), cpuStart = threadCPUSeconds()
            for fix in fixes {
                events.removeAll(keepingCapacity: true)
                monitor.update(with: fix, at: fix.time!, events: &events)
                for event in events { writer.regionEventLine(event) }
                eventCount += events.count
                activeMax = max(activeMax, monitor.activeRegionCount)
                if writer.bytes.count >= 1 << 16 {
                    bytes += writer.bytes.count
                    writer.removeAll()
                }
            }
            times.append(monotonicSeconds() - start)
            cpuTimes.append(threadCPUSeconds() - cpuStart)
            bytes += writer.bytes.count
        }
        times.sort()
        cpuTimes.sort()
        let median = times[times.count / 2], cpuMedian = cpuTimes[cpuTimes.count / 2]

        var out = StandardOutput()
        out.writer.beginObject()
        out.writer.field("tool", "geowake replay")
        out.writer.field("mode", exact ? "exact" : "default")
        out.writer.field("regions", store.liveCount)
        out.writer.field("fixes", fixes.count)
        out.writer.field("load_s", t1 - t0, decimals: 3)
        out.writer.field("parse_s", t2 - t1, decimals: 3)
        out.writer.field("repeat", passes)
        out.writer.field("monitor_s_median", median, decimals: 3)
        out.writer.field("fixes_per_s", (Double(fixes.count) / median).rounded(), decimals: 0)
        out.writer.field("ns_per_fix", median / Double(max(1, fixes.count)) * 1e9, decimals: 1)
        out.writer.field("monitor_cpu_s_median", cpuMedian, decimals: 3)
        out.writer.field("events", eventCount)
        out.writer.field("output_bytes", bytes)
        out.writer.field("active_regions_max", activeMax)
        out.writer.field("peak_rss_mb", peakResidentMegabytes(), decimals: 1)
        out.writer.endLine()
        try out.flush()
    }
}

