import ArgumentParser
import RegionIndex

/// `geowake regions …`: tools for region files.
struct RegionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regions",
        abstract: "Work with region files (GeoJSON).",
        subcommands: [RegionsCheckCommand.self, RegionsShowCommand.self]
    )
}

/// `geowake regions check PATH`: validates like `--regions` does, then reports what was loaded.
struct RegionsCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a regions file or directory and print counts by kind, bounding box and vertex totals."
    )

    @Argument(help: "A GeoJSON FeatureCollection (gzip too), a directory of *.geojson / *.json files, or - for standard input.")
    var path: String

    @OptionGroup var regionFile: RegionFileOptions
    @OptionGroup var progress: ProgressOptions

    func run() throws {
        let store = try regionFile.load(path, command: "regions check", quiet: progress.quiet)
        let s = RegionSummary(store)
        var out = StandardOutput()
        out.writer.beginObject()
        out.writer.field("path", path)
        out.writer.field("regions", store.liveCount)
        out.writer.field("circles", s.circles)
        out.writer.field("polygons", s.polygons)
        out.writer.field("beacons", s.beacons)
        out.writer.field("polygonParts", s.parts)
        out.writer.field("holes", s.holes)
        out.writer.field("vertices", s.vertices)
        if let b = s.bounds {
            out.writer.field("west", b.west, decimals: 7)
            out.writer.field("south", b.south, decimals: 7)
            out.writer.field("east", b.east, decimals: 7)
            out.writer.field("north", b.north, decimals: 7)
        }
        out.writer.endLine()
        try out.flush()
    }
}
