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

    @OptionGroup var mapFile: MapFileOptions

    func validate() throws {
        guard mapFile.map != nil else { throw ValidationError("regions show needs --map FILE.svg or FILE.html") }
    }

    func run() throws {
        let store: RegionStore
        do { store = try RegionLoader.load(path) } catch { throw CommandError(error.description) }
        try mapFile.write(store: store, index: nil, fixes: [], events: [])
    }
}
