#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Beacons
import GeoWakeCore
import Traces

/// `geowake replay`'s beacon options.
struct BeaconReplayOptions: ParsableArguments {
    @Option(help: "Replay beacon-region monitoring (or --service ranging) over this beacon trace, JSON lines or btsnoop.")
    var beacons: String?

    @Option(parsing: .unconditional, help: "Beacons: seconds after the last sighting before a beacon region exits (default 30).")
    var beaconExitTimeout: Double?

    @Flag(help: "Beacons: at the end of the trace, emit the exits still pending.")
    var flush = false
}

/// Replays a beacon trace through beacon-region monitoring or ranging. The clock is the reports' own time: every
/// line of the trace moves it, beacon or not, so an exit falls due while only other advertisements follow, as it
/// would live. A report earlier than the one before it is skipped and counted.
struct BeaconReplay {
    let options: BeaconReplayOptions
    let regionsPath: String?
    let ranging: Bool

    func run() throws {
        guard let trace = options.beacons else { throw CommandError("--service ranging needs --beacons TRACE") }
        let timeout = options.beaconExitTimeout ?? 30
        guard timeout.isFinite, timeout > 0 else {
            throw CommandError("--beacon-exit-timeout must be a number of seconds > 0, found \(timeout)")
        }
        var regions: [BeaconRegion] = []
        if let regionsPath {
            do { regions = try BeaconRegionFile.load(regionsPath) } catch { throw CommandError(error.description) }
            if regions.isEmpty && !ranging { throw CommandError("\(regionsPath): no beacon regions (properties.kind \"beacon\")") }
        } else if !ranging {
            throw CommandError("beacon-region monitoring needs --regions PATH")
        }
        if ranging {
            guard options.beaconExitTimeout == nil, !options.flush else {
                throw CommandError("--beacon-exit-timeout and --flush apply to beacon-region monitoring, not --service ranging")
            }
        }
        var output = StandardOutput()
        var decoder = BeaconDecoder()
        var backwards = 0
        var clock: Timestamp?
        var counts: [String: Int] = [:]
        /// Every report's time (`tick`, before its sightings), then its sightings, in time order; a report going
        /// back in time is counted and skipped.
        func forEachSighting(tick: (Timestamp) throws -> Void,
                             _ body: (BeaconSighting) throws -> Void) throws -> AdvertisingStatistics {
            try BeaconDecoder.read(trace) { report in
                if let clock, report.time < clock { backwards += 1; return }
                clock = report.time
                try tick(report.time)
                try decoder.sightings(in: report, body)
            }
        }
        let statistics: AdvertisingStatistics
        if ranging {
            var ranger = BeaconRanger()
            var events: [BeaconRange] = []
            func write() throws {
                for event in events { output.writer.beaconRangeLine(event) }
                counts["range", default: 0] += events.count
                events.removeAll(keepingCapacity: true)
                try output.lineDone()
            }
            statistics = try forEachSighting(tick: { time in
                ranger.advance(to: time, events: &events)
                if !events.isEmpty { try write() }
            }) { sighting in
                guard regions.isEmpty || regions.contains(where: { $0.matches(sighting.beacon) }) else { return }
                ranger.update(with: sighting, at: sighting.time, events: &events)
                try write()
            }
            // The last second's report is due at its end, which a trace always reaches.
            if let due = ranger.nextDeadline { ranger.advance(to: due, events: &events); try write() }
        } else {
            var monitor = BeaconRegionMonitor(regions: regions, exitTimeout: timeout)
            var events: [BeaconRegionEvent] = []
            func write() throws {
                for event in events {
                    output.writer.beaconRegionEventLine(event)
                    counts[event.kind.name, default: 0] += 1
                }
                events.removeAll(keepingCapacity: true)
                try output.lineDone()
            }
            statistics = try forEachSighting(tick: { time in
                monitor.advance(to: time, events: &events)
                if !events.isEmpty { try write() }
            }) { sighting in
                monitor.update(with: sighting, at: sighting.time, events: &events)
                if !events.isEmpty { try write() }
            }
            if options.flush { monitor.flush(events: &events); try write() }
        }
        try output.flush()
        let kinds = ranging ? ["range"] : ["exit", "enter"]
        let summary = "geowake replay: " + kinds.map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
            + "; \(backwards) reports going back in time skipped; \(decoder.summary(statistics))\n"
        _ = Array(summary.utf8).withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
