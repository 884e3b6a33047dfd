import ArgumentParser
import Geofencing
import Traces
import TerminalProgress

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

    @OptionGroup var mapFile: MapFileOptions
    @OptionGroup var progress: ProgressOptions

    func run() throws {
        let store: RegionStore
        do { store = try RegionLoader.load(regions) } catch { throw CommandError(error.description) }
        let index = RegionIndex(store)
        var output = StandardOutput()
        var handles: [RegionHandle] = []
        var drawn = LocateMapRecording(isOn: mapFile.map != nil)
        var bar = Progress(label: "locating", unit: .bytes, total: nil, quiet: progress.quiet)
        do {
            defer { bar.finish() }
            _ = try TraceFile.read(trace, progress: { bar.update($0, total: $1) }) { fix in
                handles.removeAll(keepingCapacity: true)
                index.forEachRegion(containing: fix.coordinate) { handles.append($0) }
                let ids = handles.map { index.attributes(of: $0).id }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                drawn.record(fix, ids)
                output.writer.beginObject()
                if let time = fix.time { output.writer.field("time", time) }
                output.writer.field("lat", fix.coordinate.latitude, decimals: 9)
                output.writer.field("lon", fix.coordinate.longitude, decimals: 9)
                output.writer.field("regions", ids)
                output.writer.endLine()
                try output.lineDone()
            }
        } catch let error as TraceError {
            throw CommandError(error.description)
        }
        try output.flush()
        try drawn.recording.write(mapFile, index: index)
    }
}
