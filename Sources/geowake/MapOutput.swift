#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GeoWakeCore
import RegionIndex
import Maps

extension MapOptions.TrackColouring: ExpressibleByArgument {}

/// `--map FILE` and its companions, shared by `replay`, `locate` and `regions show`.
struct MapFileOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Also draw a map: FILE.svg for an image, FILE.html for a page with hover labels.",
                               valueName: "file"))
    var map: String?

    @Option(help: "Map: colour the track by speed or time (default speed).")
    var mapColour: MapOptions.TrackColouring = .speed

    @Option(parsing: .unconditional, help: "Map: width in pixels (default 1200).")
    var mapWidth: Double = 1200

    @Option(parsing: .unconditional, help: "Map: height in pixels (default 800).")
    var mapHeight: Double = 800

    func validate() throws {
        guard (100...20_000).contains(mapWidth), (100...20_000).contains(mapHeight) else {
            throw ValidationError("--map-width and --map-height must be between 100 and 20000 pixels")
        }
    }

    var options: MapOptions {
        var options = MapOptions(format: MapOptions.format(forPath: map ?? ""))
        options.trackColouring = mapColour
        options.width = mapWidth
        options.height = mapHeight
        if let map { options.title = "geowake: \(map)" }
        return options
    }

    /// Draws the map of `fixes` and `events` over the regions of `store` that meet the view, and writes it
    /// to the file. With an `index` of the store, only the regions near the track are taken out of it.
    func write(store: RegionStore, index: RegionIndex?, fixes: [Fix], events: [RegionEvent]) throws {
        guard let map else { return }
        let options = options
        let regions: [Region]
        if let index, !fixes.isEmpty || !events.isEmpty {
            // The index finds what lies near the view, so a million loaded regions cost only those nearby.
            let projection = MapRenderer.projection(regions: [], fixes: fixes, events: events, options: options)
            let halfDiagonal = projection.metresPerPixel * (options.width * options.width + options.height * options.height).squareRoot() / 2
            var handles: [RegionHandle] = []
            index.forEachRegion(within: halfDiagonal, of: projection.center) { handles.append($0) }
            regions = handles.sorted().compactMap { index.region($0) }
        } else {
            regions = store.handles.compactMap { store.region($0) }
        }
        let bytes = MapRenderer.render(regions: regions, fixes: fixes, events: events, options: options)
        try Self.writeFile(map, bytes)
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CommandError("\(path): cannot write the map: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandError("\(path): cannot write the map: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}

/// `--quiet`, for the commands that show a progress bar on a terminal.
struct ProgressOptions: ParsableArguments {
    @Flag(help: "No progress bar on standard error (it is shown only when standard error is a terminal).")
    var quiet = false
}

/// What a run keeps for its map: every fix and every event, only when a map was asked for.
struct MapRecording {
    let isOn: Bool
    var store = RegionStore()
    var index: RegionIndex?
    var fixes: [Fix] = []
    var events: [RegionEvent] = []

    init(isOn: Bool) {
        self.isOn = isOn
    }

    mutating func record(_ fix: Fix, _ newEvents: [RegionEvent]) {
        guard isOn else { return }
        fixes.append(fix)
        events.append(contentsOf: newEvents)
    }

    func write(_ options: MapFileOptions, index: RegionIndex? = nil) throws {
        guard isOn else { return }
        let index = index ?? self.index
        try options.write(store: index?.store ?? store, index: index, fixes: fixes, events: events)
    }
}

/// `locate` has no events of its own; its map marks where a fix's set of containing regions changed,
/// as enter and exit, which is what `replay --exact` would report.
struct LocateMapRecording {
    var recording: MapRecording
    private var previous: Set<String> = []

    init(isOn: Bool) {
        recording = MapRecording(isOn: isOn)
    }

    mutating func record(_ fix: Fix, _ ids: [String]) {
        guard recording.isOn else { return }
        let current = Set(ids)
        let changes = previous.subtracting(current).sorted().map { RegionEvent(kind: .exit, regionID: $0, fix: fix) }
            + current.subtracting(previous).sorted().map { RegionEvent(kind: .enter, regionID: $0, fix: fix) }
        recording.record(fix, changes)
        previous = current
    }
}
