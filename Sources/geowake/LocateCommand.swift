import ArgumentParser
import GeoWakeCore
import Geofencing
import Traces

/// `geowake locate --regions PATH TRACE`: for every fix, the ids of all geographic regions containing it.
struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Print, for every fix of a trace, the regions containing it (pure geometry)."
    )

    @Option(help: "A GeoJSON regions file, or a directory of them.")
    var regions: String

    @Argument(help: "The trace file, or - for standard input. The format is detected from the content.")
    var trace: String

    static let batchSize = 256

    func run() throws {
        let store: RegionStore
        do { store = try RegionLoader.load(regions) } catch { throw CommandError(error.description) }
        let index = RegionIndex(store)
        var output = StandardOutput()
        // Fixes from a file are queried a batch at a time, so that the queries' memory reads overlap; standard
        // input may be a live feed, whose fixes are answered as they come.
        let batchSize = trace == "-" ? 1 : Self.batchSize
        var fixes: [Fix] = [], points: [Coordinate] = [], hits: [[RegionHandle]] = []
        func flushFixes() throws {
            points.removeAll(keepingCapacity: true)
            points.append(contentsOf: fixes.lazy.map(\.coordinate))
            points.withUnsafeBufferPointer { points in
                index.forEachRegion(containingEach: points) { i, handle in hits[i].append(handle) }
            }
            for (fix, handles) in zip(fixes, hits) {
                let ids = handles.map { index.attributes(of: $0).id }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                output.writer.beginObject()
                if let time = fix.time { output.writer.field("time", time) }
                output.writer.field("lat", fix.coordinate.latitude, decimals: 9)
                output.writer.field("lon", fix.coordinate.longitude, decimals: 9)
                output.writer.field("regions", ids)
                output.writer.endLine()
                try output.lineDone()
            }
            fixes.removeAll(keepingCapacity: true)
            for i in hits.indices { hits[i].removeAll(keepingCapacity: true) }
        }
        do {
            _ = try TraceFile.read(trace) { fix in
                fixes.append(fix)
                if hits.count < fixes.count { hits.append([]) }
                if fixes.count == batchSize { try flushFixes() }
            }
            try flushFixes()
        } catch let error as TraceError {
            throw CommandError(error.description)
        }
        try output.flush()
    }
}
