import ArgumentParser
import CMalloc
import GeoWakeDaemon
import Geofencing
import Foundation
import Logging

@main
struct GeoWakeDaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "geowaked", abstract: "The geowake location daemon.")

    @Option(help: "gpsd://HOST:PORT[/DEVICE], a serial device path, or trace:FILE.") var source: String?
    @Option(parsing: .unconditional, help: "Baud rate of a serial device.") var baud: Int = 4800
    @Option(help: "Beacon sightings: trace:FILE (JSON lines or btsnoop, at --speed), hciN (live, raw HCI socket), or lines:PATH (beacon JSON lines from a FIFO, - for standard input).")
    var beaconSource: String?
    @Option(parsing: .unconditional, help: "Beacon regions: seconds after the last matching sighting before a region exits.") var beaconExitTimeout: Double = 30
    @Option(parsing: .unconditional, help: "Seconds without a fix before subscribers get a noFix status event.") var noFixAfter: Double = 30
    @Option(parsing: .unconditional, help: "Horizontal accuracy in metres beyond which a fix decides no region state (poorAccuracy).") var poorAccuracy: Double = 200
    @Option(parsing: .unconditional, help: "Unacknowledged events per client before new ones are dropped and counted.") var maxPending: Int = 100_000
    @Option(parsing: .unconditional, help: "Regions: metres an exit needs the fix outside the boundary.") var hysteresis: Double = 0
    @Option(parsing: .unconditional, help: "Regions: seconds a change must hold before it is reported.") var debounce: Double = 0
    @Flag(inversion: .prefixedNo, help: "Regions: a fix whose accuracy circle straddles a boundary decides nothing.")
    var accuracyGating = true
    @Option(parsing: .unconditional, help: "Replay speed for a trace: times real time, 0 as fast as fixes are consumed.") var speed: Double = 1
    @Flag(help: "Replay the trace from its first fix, not from where the store says the last run stopped.")
    var restartTrace = false
    @Flag(help: "System mode: /run/geowake and /var/lib/geowake.") var system = false
    @Option(help: "Socket path.") var socket: String?
    @Option(help: "Store path (SQLite).") var state: String?
    @Option(help: "normal (a power cut may take back the last commits) or full (nothing leaves the daemon before its commit is synced: one sync per loop turn).") var durability: String = "normal"
    @OptionGroup var lifecycle: LifecycleOptions

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.") var logLevel: String = "info"

    /// As ArgumentParser's, but every failure is one line on standard error, without usage lines for what is not a
    /// usage error, and the exit status says its kind (`ExitStatus`).
    static func main() async {
        keepMidSizedAllocationsInTheHeap()
        let failure: DaemonFailure
        do {
            var command = try parseAsRoot()
            guard let daemon = command as? GeoWakeDaemonCommand else { return try command.run() }
            try await daemon.run()
            return
        } catch let error as DaemonFailure {
            failure = error
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            failure = DaemonFailure(status: .usage, message: message(for: error))
        }
        let line = Array(("Error: " + failure.message + "\n").utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        Foundation.exit(failure.status.rawValue)
    }

    /// A `monitor` of a thousand regions is a quarter of a megabyte three times over (its line, its feature texts,
    /// SQLite's record of them), past glibc's first threshold for mapping an allocation of its own: each was mapped,
    /// faulted in page by page and unmapped again, and page faults were a sixth of the loop's time while a thousand
    /// clients registered. Below 1 MiB they now come from the heap, which keeps up to 16 MiB it freed at its top
    /// instead of handing it back at once (about 10 MiB more at a million regions). The index's large arrays are
    /// still mapped on their own.
    private static func keepMidSizedAllocationsInTheHeap() {
        _ = mallopt(M_MMAP_THRESHOLD, 1 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 16 << 20)
    }

    func run() async throws {
        guard let logThreshold = Logger.Level(rawValue: logLevel) else { throw ValidationError("--log-level: no level \(logLevel)") }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logThreshold
            return handler
        }
        var paths = DaemonPaths.standard(system: system)
        if let socket { paths.socket = socket }
        if let state { paths.state = state }
        guard let level = DaemonStore.Durability(rawValue: durability) else {
            throw ValidationError("--durability must be normal or full, not \(durability)")
        }
        var trace: String?, live: String?
        if let source, source.hasPrefix("trace:") {
            trace = String(source.dropFirst(6))
        } else {
            live = source
        }
        guard speed >= 0, speed.isFinite else { throw ValidationError("--speed must be a number >= 0") }
        guard baud > 0 else { throw ValidationError("--baud must be a baud rate, e.g. 4800, not \(baud)") }
        guard noFixAfter > 0, noFixAfter.isFinite else { throw ValidationError("--no-fix-after must be a number > 0") }
        guard poorAccuracy > 0, poorAccuracy.isFinite else { throw ValidationError("--poor-accuracy must be a number > 0") }
        guard beaconExitTimeout > 0, beaconExitTimeout.isFinite else { throw ValidationError("--beacon-exit-timeout must be a number of seconds > 0") }
        guard maxPending >= 2 else { throw ValidationError("--max-pending must be at least 2") }
        // The loop thread's malloc arena otherwise gives its top back to the kernel whenever a free (SQLite's, after
        // each fix's commit) leaves it over the trim threshold, and faults those pages in again on the next fix.
        // mallopt(M_TRIM_THRESHOLD, 64 MiB); <malloc.h> is not in Swift's Glibc module.
        if let mallopt = dlsym(nil, "mallopt") {
            _ = unsafeBitCast(mallopt, to: (@convention(c) (Int32, Int32) -> Int32).self)(-1, 64 << 20)
        }
        let traceFile = trace, beaconTrace = beaconSource.flatMap { $0.hasPrefix("trace:") ? String($0.dropFirst(6)) : nil }
        let daemon: Daemon
        do {
            try DaemonDirectories.prepare(paths, system: system)
            let logger = Logger(label: "geowaked")
            let supervisor = ProcessSupervisor(settings: try lifecycle.settings(), logger: logger)
            daemon = try Daemon(paths: paths, trace: trace, speed: speed, durability: level, activation: supervisor, logger: logger,
                                live: live, baudRate: baud,
                                health: SourceHealth.Limits(noFixAfter: noFixAfter, poorAccuracy: poorAccuracy),
                                limits: DaemonLimits(maximumPendingEvents: maxPending),
                                regionRules: RegionMonitorConfiguration(hysteresis: hysteresis, debounce: debounce, accuracyGating: accuracyGating),
                                beaconSource: beaconSource, beaconExitTimeout: beaconExitTimeout, restartTrace: restartTrace)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw DaemonFailure(error, trace: traceFile, beaconTrace: beaconTrace)
        }
        do {
            try await daemon.serve()
        } catch {
            throw DaemonFailure(serving: error)
        }
        Foundation.exit(0)
    }
}
