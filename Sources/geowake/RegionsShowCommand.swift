import ArgumentParser
import RegionIndex
import Regions

/// `geowake regions show PATH --map FILE`: a map of a region set alone.
struct RegionsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Draw a regions file or directory as a map (SVG, or an HTML page with hover labels)."
    )

    @Argument(help: "A GeoJSON FeatureCollection, or a directory of *.geojson / *.json files.")
    var path: String

    @OptionGroup var regionFile: RegionFileOptions
    @OptionGroup var mapFile: MapFileOptions
    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        guard mapFile.map != nil else { throw ValidationError("regions show needs --map FILE.svg or FILE.html") }
    }

    func run() throws {
        let store = try regionFile.load(path, command: "regions show", quiet: progress.quiet)
        try mapFile.write(store: store, index: nil, fixes: [], events: [])
    }
}
