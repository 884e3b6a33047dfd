import GeoWakeCore
import GPSD
import Testing
import Traces
import TestSupport

/// Receiver logs fed to a real gpsd through its `tcp://` source and read back through libgps. What
/// arrives must be what gpsd itself reported for the log, and what `geowake fixes` reads from the file.
@Suite struct GPSDReplayTests {
    /// The shared gpsd captures, plus the project's own NMEA traces when there are any.
    static let traces: [String] = {
        let shared = ["bu353s4", "nmea-fuzzy-cases", "ublox-neo-m9n-nmea", "beidou-bd", "furuno_gl_ga", "st-teseo-liv4f"]
            .map { gpsdTraces + "/" + $0 + ".log" }
        return shared + filesInDirectory(packageRoot + "/traces", suffix: ".nmea")
    }()
    /// Timed epochs the reference has and gpsd 3.22 does not. furuno_gl_ga: gpsd 3.22 reports mode 1 for
    /// every epoch after the first (the log's Galileo GNGSA encoding is invalid), where the newer gpsd that
    /// made the expected file, and geowake's reader, report fixes. beidou-bd: gpsd takes no date from a void
    /// RMC, so the first fix after the void epochs reaches us without a time; geowake's reader dates it.
    static let missingFromGPSD322: [String: [String: Int]] = [
        "geowake fixes": ["furuno_gl_ga.log": 15, "beidou-bd.log": 1],
        "gpsd's expected results": ["furuno_gl_ga.log": 15],
    ]
    /// gpsd moves dates it believes are before its release forward by whole GPS week-number rollovers.
    static let rollover: Int64 = 1024 * 7 * 86_400_000

    @Test("Fixes through gpsd have the times and positions of gpsd's results and of geowake's NMEA reader",
          arguments: traces)
    func fixesMatchGPSDAndTheNMEAReader(path: String) async throws {
        let name = String(path.split(separator: "/").last!)
        let throughGPSD = try await GPSDHarness.replay(path)
        var read: [Fix] = []
        _ = try TraceFile.read(path) { read.append($0) }
        let fromReader = read.compactMap { fix in fix.time.map { (time: $0, coordinate: fix.coordinate) } }
        try #require(!fromReader.isEmpty)

        let times = throughGPSD.compactMap(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "not one fix per epoch, in order: \(times)")
        var lastByTime: [Int64: Fix] = [:]
        for fix in throughGPSD { if let time = fix.time { lastByTime[time.millisecondsSince1970] = fix } }
        let firstGPSDTime = try #require(throughGPSD.compactMap(\.time).first, "no timed fix from gpsd")
        let rollovers = (Double(firstGPSDTime.millisecondsSince1970 - fromReader[0].time.millisecondsSince1970)
                         / Double(Self.rollover)).rounded()
        let shift = Int64(rollovers) * Self.rollover
        let gpsdTimes = Set(lastByTime.keys.map { $0 - shift })

        var references = [("geowake fixes", fromReader)]
        if name.hasSuffix(".log") {
            let expected = try expectedFixes(String(name.dropLast(4)))
            references.append(("gpsd's expected results", expected.map { ($0.time, Coordinate(latitude: $0.latitude, longitude: $0.longitude)) }))
        }
        for (label, reference) in references {
            let referenceTimes = Set(reference.map(\.time.millisecondsSince1970))
            #expect(gpsdTimes.isSubset(of: referenceTimes), "times that \(label) does not have")
            #expect(referenceTimes.count - gpsdTimes.count == Self.missingFromGPSD322[label]?[name] ?? 0,
                    "times that gpsd did not report, compared with \(label)")
            for fix in reference {
                guard let got = lastByTime[fix.time.millisecondsSince1970 + shift] else { continue }
                #expect(abs(got.coordinate.latitude - fix.coordinate.latitude) <= 1e-6, "latitude at \(fix.time) vs \(label)")
                #expect(abs(got.coordinate.longitude - fix.coordinate.longitude) <= 1e-6, "longitude at \(fix.time) vs \(label)")
            }
        }
    }
}
