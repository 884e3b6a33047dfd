#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Fleet

/// `geowake fleet drain` (hidden, for `Benchmarks/fleet.sh`): reads partitions as a worker does and does
/// nothing with the messages, so that the engine's own rate is measured beside the worker's.
struct FleetDrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drain",
        abstract: "Read and acknowledge partitions as a worker does, doing nothing else (a benchmark); prints one JSON line.",
        shouldDisplay: false
    )

    @Option(help: "This reader's share: I/K reads the partitions P with P mod K = I.")
    var share = "0/1"

    @Option(parsing: .unconditional, help: "Stop after this many seconds without input.")
    var idleExit = 3.0

    @OptionGroup var tuning: FleetTuningOptions
    @OptionGroup var nats: FleetConnectionOptions

    func validate() throws {
        guard idleExit >= 0, idleExit.isFinite else { throw ValidationError("--idle-exit must be a number of seconds >= 0, not \(idleExit)") }
    }

    func run() throws {
        let parts = share.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] > 0, (0..<parts[1]).contains(parts[0]) else {
            throw CommandError("--share must be I/K with 0 ≤ I < K")
        }
        let partitions = (0..<nats.partitions).filter { $0 % parts[1] == parts[0] }
        let connection = try nats.connect(name: "geowake fleet drain \(share)", ioBufferBytes: tuning.ioBuffer, sendsAtOnce: true)
        let result = try FleetDrain.run(connection, partitions: partitions, timing: tuning.applied(to: FleetTiming()),
                                        idleMilliseconds: Int64(idleExit * 1000))
        print(result.json)
        // Written before the connection's teardown: one drain of many (fleet.sh) aborted in it, once.
        fflush(nil)
    }
}
