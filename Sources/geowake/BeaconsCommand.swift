#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Beacons
import GeoWakeCore
import Traces

/// `geowake beacons`: every beacon decoded from a beacon trace (JSON lines or btsnoop) or a live adapter,
/// one JSON line per beacon, with a summary on standard error.
struct BeaconsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beacons",
        abstract: "Print every iBeacon and AltBeacon sighting decoded from a beacon trace or a live adapter."
    )

    @Argument(help: "A beacon trace, JSON lines or btsnoop (btmon -w, Android HCI snoop log), or - for standard input.")
    var trace: String?

    @Option(help: "Scan live with this adapter (e.g. hci0) through a raw HCI socket, until Ctrl-C.")
    var live: String?

    func run() throws {
        var output = StandardOutput()
        var decoder = BeaconDecoder()
        if let live {
            guard trace == nil else { throw CommandError("give a TRACE or --live ADAPTER, not both") }
            let scanner: HCIScanner
            do { scanner = try HCIScanner(adapter: live) } catch { throw CommandError(error.description) }
            while true {
                do {
                    try scanner.next { report in
                        decoder.sightings(in: report) { output.writer.beaconSightingLine($0) }
                    }
                } catch { throw CommandError(error.description) }
                try output.flush()
            }
        }
        guard let trace else { throw CommandError("missing <trace> (a beacon trace, or --live ADAPTER)") }
        let statistics = try BeaconDecoder.read(trace) { report in
            decoder.sightings(in: report) { output.writer.beaconSightingLine($0) }
            try output.lineDone()
        }
        try output.flush()
        let summary = "geowake beacons: \(decoder.summary(statistics))\n"
        _ = Array(summary.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// Turns advertising reports into beacon sightings, counting what the advertising data held.
struct BeaconDecoder {
    private(set) var sightings = 0
    private(set) var malformedStructures = 0
    private var found: [Beacon] = []

    mutating func sightings(in report: AdvertisingReport, _ body: (BeaconSighting) throws -> Void) rethrows {
        found.removeAll(keepingCapacity: true)
        let outcome = report.data.withUnsafeBufferPointer { AdvertisingData.beacons(in: $0, into: &found) }
        malformedStructures += outcome.malformed
        for beacon in found {
            sightings += 1
            try body(BeaconSighting(time: report.time, address: report.address, rssi: report.rssi, beacon: beacon))
        }
    }

    /// Reads a beacon trace, turning an unreadable one into the command's one error line.
    static func read(_ path: String, _ body: (AdvertisingReport) throws -> Void) throws -> AdvertisingStatistics {
        do {
            return try BeaconTraceFile.read(path, body)
        } catch let error as TraceError {
            throw CommandError(error.description)
        }
    }

    func summary(_ statistics: AdvertisingStatistics) -> String {
        var parts = ["\(statistics.records) records", "\(statistics.reports) advertising reports",
                     "\(sightings) beacon sightings", "\(malformedStructures) malformed AD structures",
                     "\(statistics.malformed) malformed records"]
        if statistics.otherPackets > 0 { parts.append("\(statistics.otherPackets) other HCI packets") }
        if statistics.fragments > 0 { parts.append("\(statistics.fragments) extended-report fragments skipped") }
        return parts.joined(separator: ", ")
    }
}
