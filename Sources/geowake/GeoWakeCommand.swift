import ArgumentParser

@main
struct GeoWakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geowake",
        abstract: "Replay GPS traces through geowake's location services, and work with region files.",
        subcommands: [FixesCommand.self, LocateCommand.self, ReplayCommand.self, RegionsCommand.self, BenchCommand.self]
    )
}
