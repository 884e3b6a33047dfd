import ArgumentParser
import Fleet
import FileBytes

/// `geowake fleet regions put PATH --set NAME`: a new version of a region set, for every running worker.
struct FleetRegionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regions",
        abstract: "Manage the fleet's region sets.",
        subcommands: [FleetRegionsPutCommand.self]
    )
}

struct FleetRegionsPutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Store a GeoJSON file as a region set's new version; running workers switch to it."
    )

    @Argument(help: "A GeoJSON FeatureCollection (gzip too), checked as --regions checks it.")
    var path: String

    @Option(help: "The region set's name.")
    var set = "default"

    @OptionGroup var nats: FleetConnectionOptions

    func run() throws {
        var bytes: [UInt8] = []
        try WholeFile.withContents(of: path) { bytes = Array($0) }
        let connection = try nats.connect(name: "geowake fleet regions put")
        let (revision, regions) = try FleetRegions.put(connection, set: set, geoJSON: bytes, layout: nats.layout)
        print("{\"set\":\"\(set)\",\"revision\":\(revision),\"regions\":\(regions)}")
    }
}
