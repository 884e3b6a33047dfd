#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import JSONLines
import RegionIndex
import Traces
import TerminalProgress

/// `geowake locate --regions PATH TRACE`: for every fix, the ids of all geographic regions containing it.
struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Print, for every fix of a trace, the regions containing it (pure geometry)."
    )

    @Option(help: "A GeoJSON regions file (gzip too), a directory of them, or - for standard input.")
    var regions: String

    @OptionGroup var regionFile: RegionFileOptions

    @Argument(help: "The trace file, or - for standard input. The format is detected from the content.")
    var trace: String

    @OptionGroup var mapFile: MapFileOptions
    @OptionGroup var progress: ProgressOptions

    func run() throws {
        let store = try regionFile.load(regions, command: "locate", quiet: progress.quiet)
        let index = RegionIndex(store)
        // `index.store` read inside the loop is a copy of the store (a retain and release of each of its
        // arrays): taken once here.
        let ids = index.store
        let quotedIDs = LocateIDs(ids)
        var lines = LocateLineWriter()
        var ranks = RankList()
        var slots = RegionSlots()
        var handles: [RegionHandle] = []
        var located = 0
        var drawn = LocateMapRecording(isOn: mapFile.map != nil)
        var bar = Progress(label: "locating", unit: .bytes, total: nil, quiet: progress.quiet)
        let statistics: TraceStatistics
        do {
            defer { bar.finish() }
            statistics = try quotedIDs.withTables { rankOfSlot, strings in
                try TraceFile.read(trace, progress: { bar.update($0, total: $1) }) { fix in
                    let found: Int
                    if drawn.recording.isOn {
                        // One query gives both; the ids are made into Strings only when a map is drawn.
                        handles.removeAll(keepingCapacity: true)
                        index.forEachRegion(containing: fix.coordinate) { handles.append($0) }
                        handles.sort { rankOfSlot[Int($0.slot.rawValue)] < rankOfSlot[Int($1.slot.rawValue)] }
                        ranks.removeAll()
                        for handle in handles { ranks.append(rankOfSlot[Int(handle.slot.rawValue)]) }
                        drawn.record(fix, handles.map { ids.id($0) })
                        ranks.withUnsafeBufferPointer { lines.line(fix, strings: strings, order: $0) }
                        found = handles.count
                    } else {
                        slots.removeAll()
                        index.forEachRegion(containing: fix.coordinate) { slots.append($0.slot.rawValue) }
                        if slots.sameAsPrevious {
                            lines.lineRepeatingRegions(fix)
                        } else {
                            ranks.removeAll()
                            slots.withUnsafeBufferPointer { for slot in $0 { ranks.append(rankOfSlot[Int(slot)]) } }
                            ranks.sort()
                            ranks.withUnsafeBufferPointer { lines.line(fix, strings: strings, order: $0) }
                        }
                        found = slots.count
                    }
                    if found > 0 { located += 1 }
                    if lines.count >= StandardOutput.blockSize { try lines.drain { try StandardOutput.write($0) } }
                }
            }
        } catch let error as TraceError {
            throw CommandError(error.description)
        }
        try lines.drain { try StandardOutput.write($0) }
        try drawn.recording.write(mapFile, index: index)
        let summary = "geowake locate: \(store.liveCount) regions, \(statistics.fixes) fixes, \(located) in at least one region; "
            + "trace: \(statistics.summary)\n"
        _ = Array(summary.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
