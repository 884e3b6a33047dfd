import ArgumentParser
import Fleet

/// How a worker (or `fleet drain`) reads its partitions: JetStream and libnats settings the benchmarks try;
/// hidden, as the defaults are what the delivery promise was measured with.
struct FleetTuningOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Messages asked for in one pull request.", visibility: .hidden))
    var fetchBatch: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Fewer messages in a pull request when they would pass this many bytes.", visibility: .hidden))
    var fetchBytes: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("libnats's socket buffer in bytes (its default 32 KB).", visibility: .hidden))
    var ioBuffer: Int?

    func validate() throws {
        for (name, value) in [("--fetch-batch", fetchBatch), ("--fetch-bytes", fetchBytes), ("--io-buffer", ioBuffer)] {
            if let value, value < 1 { throw ValidationError("\(name) must be positive") }
        }
    }

    func applied(to timing: FleetTiming) -> FleetTiming {
        var timing = timing
        if let fetchBatch { timing.fetchBatch = fetchBatch }
        if let fetchBytes { timing.fetchBytes = fetchBytes }
        return timing
    }
}
