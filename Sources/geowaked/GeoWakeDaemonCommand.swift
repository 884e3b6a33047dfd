import ArgumentParser
import GeoWakeDaemon
import Foundation
import Logging

@main
struct GeoWakeDaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "geowaked", abstract: "The geowake location daemon.")

    @Option(help: "trace:FILE (gpsd:// and serial devices are not wired in yet).") var source: String?
    @Option(help: "Replay speed for a trace: times real time, 0 as fast as fixes are consumed.") var speed: Double = 1
    @Flag(help: "System mode: /run/geowake and /var/lib/geowake.") var system = false
    @Option(help: "Socket path.") var socket: String?
    @Option(help: "Store path (SQLite).") var state: String?
    @Option(help: "normal (synchronous=NORMAL) or full (synchronous=FULL).") var durability: String = "normal"
    @OptionGroup var lifecycle: LifecycleOptions

    func run() throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var paths = DaemonPaths.standard(system: system)
        if let socket { paths.socket = socket }
        if let state { paths.state = state }
        guard let level = DaemonStore.Durability(rawValue: durability) else {
            throw ValidationError("--durability must be normal or full, not \(durability)")
        }
        var trace: String?
        if let source {
            guard source.hasPrefix("trace:") else { throw ValidationError("--source: only trace:FILE is supported so far, not \(source)") }
            trace = String(source.dropFirst(6))
        }
        guard speed >= 0, speed.isFinite else { throw ValidationError("--speed must be a number >= 0") }
        do {
            let logger = Logger(label: "geowaked")
            let supervisor = ProcessSupervisor(settings: try lifecycle.settings(), logger: logger)
            let daemon = try Daemon(paths: paths, trace: trace, speed: speed, durability: level, activation: supervisor, logger: logger)
            try daemon.run()
            Foundation.exit(0)
        } catch let error as ProtocolError {
            throw ValidationError(error.message)
        }
    }
}
