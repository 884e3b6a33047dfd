#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GeoWakeCore
import Geofencing
import RegionIndex
import JSONLines
import LocationServices
import Traces
import TerminalProgress

/// `geowake replay`: runs one location service over a trace exactly as the daemon runs it live, and prints
/// its events as JSON lines; a summary goes to standard error.
///
/// The services' clock is the fixes' own time. Fixes without a time (NMEA before the receiver reported the
/// date) cannot be placed on that clock and are skipped; so are fixes whose time goes backwards. Both are
/// counted in the summary. A trace in which no fix has a date is an error.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace through region monitoring or another location service, printing its events."
    )

    enum Service: String, ExpressibleByArgument, CaseIterable {
        case regions, standard, significant, visits, ranging
    }

    @Argument(help: "The trace file, or - for standard input. The format is detected from the content.")
    var trace: String?

    @OptionGroup var beaconOptions: BeaconReplayOptions

    @Option(help: "Regions for region monitoring: a GeoJSON file or a directory of them.")
    var regions: String?

    @OptionGroup var regionFile: RegionFileOptions

    @Option(help: "The service to replay: regions (the default, needs --regions), standard, significant or visits.")
    var service: Service = .regions

    @OptionGroup var rules: RegionRuleOptions

    @OptionGroup var serviceOptions: ServiceOptions

    @OptionGroup var mapFile: MapFileOptions
    @OptionGroup var progress: ProgressOptions

    private var replaysBeacons: Bool { beaconOptions.beacons != nil || service == .ranging }

    /// The option checks, before anything is read. What is missing (the trace, `--regions`) is said by `run`:
    /// ArgumentParser validates before it looks for unknown options, and `replay --bogus TRACE` should name `--bogus`.
    func validate() throws {
        if replaysBeacons {
            guard trace == nil else { throw CommandError("give a fix TRACE or --beacons TRACE, not both") }
            return
        }
        try checkOptionsBelongToService()
        switch service {
        case .regions: _ = try rules.configuration()
        case .standard: try standardConfiguration.validate()
        case .significant: try significantConfiguration.validate()
        case .visits: try visitConfiguration.validate()
        case .ranging: break
        }
    }

    func run() throws {
        if replaysBeacons {
            return try BeaconReplay(options: beaconOptions, regionsPath: regions, ranging: service == .ranging).run()
        }
        var output = StandardOutput()
        var events = EventCounts(service: service)
        var drawn = MapRecording(isOn: mapFile.map != nil)
        var loadSeconds: Double?
        let run: ReplayRun
        switch service {
        case .regions:
            guard let regions else { throw CommandError("region monitoring needs --regions PATH") }
            let loadStart = monotonicSeconds()
            let index = RegionIndex(try regionFile.load(regions, command: "replay", quiet: progress.quiet))
            drawn.index = index
            loadSeconds = monotonicSeconds() - loadStart
            run = try replay(RegionMonitor(regions: index, configuration: try rules.configuration())) { fix, batch in
                drawn.record(fix, batch)
                for event in batch {
                    events.count(event.crossed ? "crossed \(event.kind.name)" : event.kind.name)
                    output.writer.regionEventLine(event)
                }
                try output.lineDone()
            }
        case .standard:
            run = try replay(StandardLocationFilter(configuration: standardConfiguration)) { _, updates in
                for update in updates {
                    events.count("location")
                    output.writer.fixEventLine("location", update.fix)
                }
                try output.lineDone()
            }
        case .significant:
            run = try replay(SignificantChangeDetector(configuration: significantConfiguration)) { _, changes in
                for change in changes {
                    events.count("significant")
                    output.writer.fixEventLine("significant", change.fix)
                }
                try output.lineDone()
            }
        case .visits:
            run = try replay(VisitDetector(configuration: visitConfiguration)) { _, visits in
                for event in visits {
                    events.count(event.visit.departure == nil ? "arrival" : "departure")
                    output.writer.visitLine(event.visit, reportedAt: event.reportedAt)
                }
                try output.lineDone()
            }
        case .ranging:
            preconditionFailure("ranging replays beacons")
        }
        try output.flush()
        try drawn.write(mapFile)
        let summary = Array("geowake replay: \(run.summary(events: events, loadSeconds: loadSeconds))\n".utf8)
        _ = summary.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Reads the trace through the library's driver (`ServiceReplay`): `fed` hears every fix fed to the
    /// service with the events it caused (none for most fixes).
    private func replay<S: LocationService>(_ service: S, _ fed: (Fix, [S.Event]) throws -> Void) throws -> ReplayRun
    where S.Input == Fix {
        guard let trace else { throw CommandError("missing <trace> (a fix trace, or --beacons TRACE)") }
        var replay = ServiceReplay(service)
        var run = ReplayRun()
        let start = monotonicSeconds()
        var bar = Progress(label: "replaying", unit: .bytes, total: nil, quiet: progress.quiet)
        defer { bar.finish() }
        run.trace = try TraceFile.read(trace, progress: { bar.update($0, total: $1) }) { fix in
            var answered = false
            let wasFed = try replay.feed(fix) { events in
                answered = true
                try fed(fix, events)
            }
            if wasFed && !answered { try fed(fix, []) }
        }
        (run.replayed, run.withoutTime, run.backwards) = (replay.replayed, replay.withoutTime, replay.backwards)
        if run.replayed == 0 && run.withoutTime > 0 {
            throw TraceError.withoutDates(file: trace == "-" ? "standard input" : trace, fixes: run.withoutTime)
        }
        run.seconds = monotonicSeconds() - start
        return run
    }

    private var standardConfiguration: StandardLocationFilter.Configuration { serviceOptions.standard }
    private var significantConfiguration: SignificantChangeDetector.Configuration { serviceOptions.significant }
    private var visitConfiguration: VisitDetector.Configuration { serviceOptions.visits }

    /// Options of one service given with another are a mistake worth saying, not silently ignoring.
    private func checkOptionsBelongToService() throws {
        let given: [(String, Service, Bool)] = [("--regions", .regions, regions != nil)]
            + rules.given.map { ($0.0, Service.regions, $0.1) } + [
            ("--map", .regions, mapFile.map != nil),
        ] + serviceOptions.given.map { ($0.option, Service(rawValue: $0.service)!, $0.isGiven) }
        if let (option, owner, _) = given.first(where: { $0.2 && $0.1 != service }) {
            throw CommandError("\(option) applies to --service \(owner.rawValue), not --service \(service.rawValue)")
        }
    }
}

/// Events printed, by kind, in an order fixed per service so the summary reads the same every time.
struct EventCounts {
    private(set) var counts: [(kind: String, count: Int)]

    init(service: ReplayCommand.Service) {
        let kinds = switch service {
        case .regions: ["exit", "enter", "dwell", "crossed enter", "crossed exit"]
        case .standard: ["location"]
        case .significant: ["significant"]
        case .visits: ["arrival", "departure"]
        case .ranging: ["range"]
        }
        counts = kinds.map { ($0, 0) }
    }

    mutating func count(_ kind: String) {
        if let i = counts.firstIndex(where: { $0.kind == kind }) { counts[i].count += 1 }
    }
}

/// What one pass over the trace did, for the summary on standard error.
struct ReplayRun {
    var trace = TraceStatistics()
    var replayed = 0
    var withoutTime = 0
    var backwards = 0
    var seconds = 0.0

    func summary(events: EventCounts, loadSeconds: Double?) -> String {
        var parts = ["\(replayed) fixes replayed (skipped: \(withoutTime) without time, \(backwards) going back in time)"]
        parts.append(events.counts.filter { $0.count > 0 || !$0.kind.hasPrefix("crossed") }
            .map { "\($0.count) \($0.kind)" }.joined(separator: ", "))
        if let loadSeconds { parts.append("regions loaded in \(Self.seconds(loadSeconds)) s") }
        let rate = seconds > 0 ? Int((Double(replayed) / seconds).rounded()) : 0
        parts.append("replayed in \(Self.seconds(seconds)) s (\(rate) fixes/s)")
        parts.append("trace: \(trace.summary)")
        return parts.joined(separator: "; ")
    }

    private static func seconds(_ value: Double) -> String {
        var writer = JSONLineWriter(reservingCapacity: 16)
        writer.appendNumber(value, decimals: 3)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
