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

    @Option(parsing: .unconditional, help: "Regions: metres an exit needs the fix outside the boundary (default 0).")
    var hysteresis: Double?

    @Option(parsing: .unconditional, help: "Regions: seconds a change must hold before it is reported (default 0).")
    var debounce: Double?

    @Flag(inversion: .prefixedNo, help: "Regions: a fix whose accuracy circle straddles a boundary decides nothing (default on).")
    var accuracyGating: Bool?

    @Flag(help: "Regions: hysteresis 0, debounce 0, no accuracy gating: events are the differences of `locate`'s sets.")
    var exact = false

    @Flag(help: "Regions: report regions passed through between two fixes as enter then exit, marked crossed.")
    var segmentCrossing = false

    @Option(parsing: .unconditional, help: "Standard: metres from the last delivered fix (default 0: every fix).")
    var distanceFilter: Double?

    @Option(parsing: .unconditional, help: "Standard: deliver only fixes whose hAcc is at most this many metres.")
    var desiredAccuracy: Double?

    @Option(parsing: .unconditional, help: "Standard: seconds between delivered fixes at least.")
    var minimumInterval: Double?

    @Option(parsing: .unconditional, help: "Significant: metres from the last report (default 500).")
    var significantDistance: Double?

    @Option(parsing: .unconditional, help: "Significant: seconds since the last report (default 300).")
    var significantInterval: Double?

    @Option(parsing: .unconditional, help: "Visits: metres within which the device must stay (default 100).")
    var visitRadius: Double?

    @Option(parsing: .unconditional, help: "Visits: seconds of staying before an arrival (default 300).")
    var visitDuration: Double?

    @OptionGroup var mapFile: MapFileOptions
    @OptionGroup var progress: ProgressOptions

    func run() throws {
        if beaconOptions.beacons != nil || service == .ranging {
            guard trace == nil else { throw CommandError("give a fix TRACE or --beacons TRACE, not both") }
            return try BeaconReplay(options: beaconOptions, regionsPath: regions, ranging: service == .ranging).run()
        }
        try checkOptionsBelongToService()
        var drawn = MapRecording(isOn: mapFile.map != nil)
        var output = StandardOutput()
        var events = EventCounts(service: service)
        var loadSeconds: Double?
        let run: ReplayRun
        switch service {
        case .regions:
            let configuration = try regionConfiguration()
            guard let regions else { throw CommandError("region monitoring needs --regions PATH") }
            let loadStart = monotonicSeconds()
            let store: RegionStore
            store = try regionFile.load(regions, command: "replay")
            let index = RegionIndex(store)
            drawn.index = index
            var monitor = RegionMonitor(regions: index, configuration: configuration)
            loadSeconds = monotonicSeconds() - loadStart
            var batch: [RegionEvent] = []
            run = try replay { fix, now in
                // Most fixes cause no event, and emptying an empty array still costs a call.
                if !batch.isEmpty { batch.removeAll(keepingCapacity: true) }
                monitor.update(with: fix, at: now, events: &batch)
                drawn.record(fix, batch)
                for event in batch {
                    events.count(event.crossed ? "crossed \(event.kind.name)" : event.kind.name)
                    output.writer.regionEventLine(event)
                }
                try output.lineDone()
            }
        case .standard:
            let configuration = StandardLocationFilter.Configuration(
                distanceFilter: distanceFilter ?? 0, desiredAccuracy: desiredAccuracy, minimumInterval: minimumInterval)
            do { try configuration.validate() } catch { throw CommandError(error.description) }
            var filter = StandardLocationFilter(configuration: configuration)
            run = try replay { fix, now in
                guard let delivered = filter.update(with: fix, at: now) as Fix? else { return }
                events.count("location")
                output.writer.fixEventLine("location", delivered)
                try output.lineDone()
            }
        case .significant:
            let configuration = SignificantChangeDetector.Configuration(
                distance: significantDistance ?? 500, interval: significantInterval ?? 300)
            do { try configuration.validate() } catch { throw CommandError(error.description) }
            var detector = SignificantChangeDetector(configuration: configuration)
            run = try replay { fix, now in
                guard let change = detector.update(with: fix, at: now) as Fix? else { return }
                events.count("significant")
                output.writer.fixEventLine("significant", change)
                try output.lineDone()
            }
        case .visits:
            let configuration = VisitDetector.Configuration(radius: visitRadius ?? 100,
                                                            minimumDuration: visitDuration ?? 300)
            do { try configuration.validate() } catch { throw CommandError(error.description) }
            var detector = VisitDetector(configuration: configuration)
            run = try replay { fix, now in
                for visit in detector.update(with: fix, at: now) as [Visit] {
                    events.count(visit.departure == nil ? "arrival" : "departure")
                    output.writer.visitLine(visit, reportedAt: now)
                }
                try output.lineDone()
            }
        case .ranging:
            throw CommandError("--service ranging replays a beacon trace: give --beacons TRACE")
        }
        try output.flush()
        try drawn.write(mapFile)
        let summary = Array("geowake replay: \(run.summary(events: events, loadSeconds: loadSeconds))\n".utf8)
        _ = summary.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Reads the trace and hands each fix that has a time not earlier than the previous one to `step`.
    private func replay(_ step: (Fix, Timestamp) throws -> Void) throws -> ReplayRun {
        guard let trace else { throw CommandError("missing <trace> (a fix trace, or --beacons TRACE)") }
        var run = ReplayRun()
        let start = monotonicSeconds()
        var clock: Timestamp?
        var bar = Progress(label: "replaying", unit: .bytes, total: nil, quiet: progress.quiet)
        defer { bar.finish() }
        do {
            run.trace = try TraceFile.read(trace, progress: { bar.update($0, total: $1) }) { fix in
                guard let now = fix.time else { run.withoutTime += 1; return }
                if let clock, now < clock { run.backwards += 1; return }
                clock = now
                run.replayed += 1
                try step(fix, now)
            }
        } catch let error as TraceError {
            throw CommandError(error.description)
        }
        if run.replayed == 0 && run.withoutTime > 0 {
            throw CommandError(TraceError.withoutDates(file: trace == "-" ? "standard input" : trace, fixes: run.withoutTime).description)
        }
        run.seconds = monotonicSeconds() - start
        return run
    }

    private func regionConfiguration() throws -> RegionMonitorConfiguration {
        if exact {
            let conflicting = [hysteresis.map { _ in "--hysteresis" }, debounce.map { _ in "--debounce" },
                               accuracyGating.map { $0 ? "--accuracy-gating" : "--no-accuracy-gating" }]
            if let first = conflicting.compactMap({ $0 }).first {
                throw CommandError("--exact turns hysteresis, debounce and accuracy gating off; drop \(first)")
            }
            return .exact(segmentCrossing: segmentCrossing)
        }
        let configuration = RegionMonitorConfiguration(hysteresis: hysteresis ?? 0, debounce: debounce ?? 0,
                                                       accuracyGating: accuracyGating ?? true,
                                                       segmentCrossing: segmentCrossing)
        do { try configuration.validate() } catch { throw CommandError(error.description) }
        return configuration
    }

    /// Options of one service given with another are a mistake worth saying, not silently ignoring.
    private func checkOptionsBelongToService() throws {
        let given: [(String, Service, Bool)] = [
            ("--regions", .regions, regions != nil), ("--hysteresis", .regions, hysteresis != nil),
            ("--debounce", .regions, debounce != nil), ("--[no-]accuracy-gating", .regions, accuracyGating != nil),
            ("--exact", .regions, exact), ("--segment-crossing", .regions, segmentCrossing),
            ("--map", .regions, mapFile.map != nil),
            ("--distance-filter", .standard, distanceFilter != nil), ("--desired-accuracy", .standard, desiredAccuracy != nil),
            ("--minimum-interval", .standard, minimumInterval != nil),
            ("--significant-distance", .significant, significantDistance != nil),
            ("--significant-interval", .significant, significantInterval != nil),
            ("--visit-radius", .visits, visitRadius != nil), ("--visit-duration", .visits, visitDuration != nil),
        ]
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
