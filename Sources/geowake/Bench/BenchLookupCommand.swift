#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GeoWakeCore
import RegionIndex
import Regions
import JSONLines

/// `geowake bench lookup REGIONS POINTS`: load and index time, memory, and point-query throughput on one
/// core, printed as one JSON line with the same keys (and checksum) as the peers in the shared bench kit (/work/shared/bench).
struct BenchLookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Time region loading, index building and point queries (\"lon lat\" per line)."
    )

    @Argument(help: "Regions file or directory.") var regions: String
    @Argument(help: "Query points, \"lon lat\" per line.") var points: String
    @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Query passes; the median is reported.") var passes: Int = 3
    @Option(help: "Write each point's region ids, sorted by byte order, as \"index id id…\" lines.") var hitsOut: String?
    @Option(help: "Write the first-loaded region containing each point (\"-\" for none), one per line.") var firstOut: String?

    func validate() throws {
        guard passes >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        let t0 = monotonicSeconds(), c0 = threadCPUSeconds()
        let store: RegionStore
        do { store = try RegionLoader.load(regions) } catch { throw CommandError(error.description) }
        let t1 = monotonicSeconds(), c1 = threadCPUSeconds()
        let index = RegionIndex(store)
        let t2 = monotonicSeconds(), c2 = threadCPUSeconds()
        let xy = try readPoints(points)
        let n = xy.count / 2

        var times = QueryTimes()
        var hits = 0, checksum: UInt64 = 0
        for _ in 0..<passes {
            hits = 0
            checksum = 0
            times.measure {
                for i in 0..<n {
                    let q = UInt64(i + 1)
                    index.forEachRegion(containing: Coordinate(latitude: xy[2 * i + 1], longitude: xy[2 * i])) { h in
                        hits += 1
                        checksum &+= q &* UInt64(h.slot.rawValue + 1)
                    }
                }
            }
        }
        if hitsOut != nil || firstOut != nil { try writeHits(index, xy) }

        let summary = RegionSummary(store)
        let bytes = index.memoryFootprint
        var out = StandardOutput()
        let w = { (body: (inout JSONLineWriter) -> Void) in body(&out.writer) }
        w { $0.beginObject() }
        w { $0.field("tool", "geowake") }
        w { $0.field("regions", store.liveCount) }
        w { $0.field("circles", summary.circles) }
        w { $0.field("polygon_parts", summary.parts) }
        w { $0.field("vertices", summary.vertices) }
        w { $0.field("load_s", t1 - t0, decimals: 3) }
        w { $0.field("build_s", t2 - t1, decimals: 3) }
        w { $0.field("load_cpu_s", c1 - c0, decimals: 3) }
        w { $0.field("build_cpu_s", c2 - c1, decimals: 3) }
        w { $0.field("index_bytes", bytes) }
        w { $0.field("bytes_per_region", Double(bytes) / Double(max(1, store.liveCount)), decimals: 1) }
        w { $0.field("budget_bytes", 150 * store.liveCount + 16 * summary.vertices) }
        w { $0.field("points", n) }
        w { $0.field("repeat", passes) }
        w { $0.field("query_s_median", times.median, decimals: 3) }
        w { $0.field("qps_median", (Double(n) / times.median).rounded(), decimals: 0) }
        // CPU time of this thread: what the queries cost when other processes share the cores.
        w { $0.field("qps_cpu_median", (Double(n) / times.cpuMedian).rounded(), decimals: 0) }
        w { $0.field("hits", hits) }
        w { $0.field("hits_per_query", Double(hits) / Double(max(1, n)), decimals: 3) }
        w { $0.field("checksum", String(checksum)) }
        w { $0.field("peak_rss_mb", peakResidentMegabytes(), decimals: 1) }
        w { $0.endLine() }
        try out.flush()
    }

    private func writeHits(_ index: RegionIndex, _ xy: [Double]) throws {
        let hitsFile = try hitsOut.map { try OutputFile($0) }
        let firstFile = try firstOut.map { try OutputFile($0) }
        var handles: [RegionHandle] = []
        for i in 0..<xy.count / 2 {
            handles.removeAll(keepingCapacity: true)
            index.forEachRegion(containing: Coordinate(latitude: xy[2 * i + 1], longitude: xy[2 * i])) { handles.append($0) }
            if let firstFile {
                let first = handles.min().map { index.attributes(of: $0).id } ?? "-"
                try firstFile.write(first + "\n")
            }
            if let hitsFile {
                let ids = handles.map { index.attributes(of: $0).id }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                try hitsFile.write(([String(i)] + ids).joined(separator: " ") + "\n")
            }
        }
        try hitsFile?.close()
        try firstFile?.close()
    }

    private func readPoints(_ path: String) throws -> [Double] {
        guard let file = fopen(path, "r") else { throw CommandError("\(path): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        var xy: [Double] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        var number = 0
        while getline(&line, &capacity, file) > 0, let text = line {
            number += 1
            var end: UnsafeMutablePointer<CChar>?
            let lon = strtod(text, &end)
            guard let afterLon = end else { break }
            let lat = strtod(afterLon, &end)
            guard afterLon != text, end != afterLon else { throw CommandError("\(path): line \(number): expected \"lon lat\"") }
            xy.append(lon)
            xy.append(lat)
        }
        free(line)
        return xy
    }
}

/// Wall and CPU times of repeated passes.
struct QueryTimes {
    private var wall: [Double] = [], cpu: [Double] = []

    mutating func measure(_ body: () -> Void) {
        let start = monotonicSeconds(), cpuStart = threadCPUSeconds()
        body()
        wall.append(monotonicSeconds() - start)
        cpu.append(threadCPUSeconds() - cpuStart)
    }

    var median: Double { Self.median(wall) }
    var cpuMedian: Double { Self.median(cpu) }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted(), middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// A buffered output file (C stdio) for the bench's side outputs.
struct OutputFile {
    private let file: UnsafeMutablePointer<FILE>
    private let path: String

    init(_ path: String) throws {
        guard let file = fopen(path, "w") else { throw CommandError("\(path): \(String(cString: strerror(errno)))") }
        self.file = file
        self.path = path
    }

    func write(_ text: String) throws {
        guard fputs(text, file) >= 0 else { throw CommandError("\(path): \(String(cString: strerror(errno)))") }
    }

    func close() throws {
        guard fclose(file) == 0 else { throw CommandError("\(path): \(String(cString: strerror(errno)))") }
    }
}
