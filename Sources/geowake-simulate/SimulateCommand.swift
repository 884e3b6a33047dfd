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

    @Option(help: "Processes that share the seeds (default: one per core).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: .hidden)
    var totals = false

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
        var count = SeedCount()
        if jobs > 1 && seeds > 1 {
            count = try runInParallel()
        } else {
            for seed in first..<(first + UInt64(seeds)) {
                let outcome = try simulation.run(seed: seed)
                count.events += outcome.eventsHandled
                count.starts += outcome.daemonStarts
                if let failure = outcome.failure {
                    count.failures += 1
                    print("seed \(seed) failed at step \(outcome.failedStep ?? 0): \(failure)")
                    print("  reproduce: geowake-simulate --seed \(seed) --steps \(steps)\(withoutResendFilter ? " --without-resend-filter" : "")")
                }
            }
        }
        if totals {
            print("totals \(count.failures) \(count.events) \(count.starts)")
            return
        }
        let (failures, events, starts) = (count.failures, count.events, count.starts)
        let seconds = Date().timeIntervalSince(started)
        print(String(format: "geowake-simulate: %d seeds (%llu-%llu, %d steps each) in %.1f s: %d events handled, %d daemon starts; %d passed, %d failed",
                     seeds, first, first + UInt64(seeds) - 1, steps, seconds, events, starts, seeds - failures, failures))
        if failures > 0 { throw ExitCode(1) }
    }
}

struct SeedCount {
    var failures = 0, events = 0, starts = 0
}

extension SimulateCommand {
    /// Splits the seeds into `jobs` contiguous ranges, each run by a copy of this command; their failure lines pass
    /// through as they are, their totals are added up.
    func runInParallel() throws -> SeedCount {
        let share = (seeds + jobs - 1) / jobs
        var children: [(Process, Pipe)] = []
        for job in 0..<jobs where job * share < seeds {
            let child = Process(), output = Pipe()
            child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            child.arguments = ["--seeds", "\(min(share, seeds - job * share))", "--first", "\(first + UInt64(job * share))",
                               "--steps", "\(steps)", "--jobs", "1", "--totals"] + (withoutResendFilter ? ["--without-resend-filter"] : [])
            child.standardOutput = output
            try child.run()
            children.append((child, output))
        }
        var count = SeedCount()
        for (child, output) in children {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.first == "totals", fields.count == 4 {
                    count.failures += Int(fields[1]) ?? 0
                    count.events += Int(fields[2]) ?? 0
                    count.starts += Int(fields[3]) ?? 0
                } else {
                    print(line)
                }
            }
            guard child.terminationStatus == 0 else { throw ExitCode(child.terminationStatus) }
        }
        return count
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
