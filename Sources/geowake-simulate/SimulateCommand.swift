import ArgumentParser
import DaemonSimulation
import Foundation

/// Runs the daemon's deterministic simulation over a range of seeds; a failing seed prints the one line that
/// replays it, and `--seed N` replays one seed with its whole schedule.
@main
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geowake-simulate",
        abstract: "Runs geowaked's core under seeded schedules of fixes, subscriber kills, crashes and power cuts, checking the delivery promise after every step.")

    @Option(help: "How many seeds to run, from --first.")
    var seeds = 1000

    @Option(help: "The first seed.")
    var first: UInt64 = 1

    @Option(help: "Run this one seed and print its schedule.")
    var seed: UInt64?

    @Option(help: "Steps of each schedule before the calm end.")
    var steps = 40

    @Flag(help: "Subscribers hand resends to user code (a library bug the simulation must find).")
    var withoutResendFilter = false

    mutating func validate() throws {
        guard seeds > 0 else { throw ValidationError("--seeds must be at least 1") }
        guard (1...10_000).contains(steps) else { throw ValidationError("--steps must be 1-10000") }
    }

    func run() throws {
        DeterministicHashing.ensure()
        var simulation = Simulation(steps: steps, withoutResendFilter: withoutResendFilter)
        if let seed {
            simulation.narrate = { print($0) }
            let outcome = try simulation.run(seed: seed)
            print(outcome.failure.map { "seed \(seed) FAILED at step \(outcome.failedStep ?? 0): \($0)" }
                  ?? "seed \(seed) passed: \(outcome.eventsHandled) events handled, \(outcome.daemonStarts) daemon starts")
            if outcome.failure != nil { throw ExitCode(1) }
            return
        }
        let started = Date()
        var failures = 0, events = 0, starts = 0
        for seed in first..<(first + UInt64(seeds)) {
            let outcome = try simulation.run(seed: seed)
            events += outcome.eventsHandled
            starts += outcome.daemonStarts
            if let failure = outcome.failure {
                failures += 1
                print("seed \(seed) failed at step \(outcome.failedStep ?? 0): \(failure)")
                print("  reproduce: geowake-simulate --seed \(seed) --steps \(steps)\(withoutResendFilter ? " --without-resend-filter" : "")")
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print(String(format: "geowake-simulate: %d seeds (%llu-%llu, %d steps each) in %.1f s: %d events handled, %d daemon starts; %d passed, %d failed",
                     seeds, first, first + UInt64(seeds) - 1, steps, seconds, events, starts, seeds - failures, failures))
        if failures > 0 { throw ExitCode(1) }
    }
}

/// Swift seeds its hashing per process, so dictionary order — and with it the order in which the daemon visits
/// some of its tables — would differ between two runs of one seed; the command runs itself again with
/// SWIFT_DETERMINISTIC_HASHING set, so that a seed replays exactly.
enum DeterministicHashing {
    static func ensure() {
        guard getenv("SWIFT_DETERMINISTIC_HASHING") == nil else { return }
        setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
        let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", arguments)
    }
}
