import ArgumentParser

/// Throughput measurements of the hot paths, for release builds; the peers run beside them in Benchmarks/.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure geowake's hot paths (build with -c release).",
        subcommands: [BenchNMEACommand.self, BenchLookupCommand.self, BenchReplayCommand.self, BenchMonitorAddCommand.self]
    )
}
