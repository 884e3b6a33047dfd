import GeoWakeCore
import Foundation
import Testing
@testable import Traces
import TestSupport

/// The gpsd JSON and GPX readers under mutated input: no crash, no implausible fix.
@Suite struct TraceFuzzTests {
    static func read(_ bytes: [UInt8], _ format: TraceFormat?, _ rng: inout SeededGenerator) -> [Fix] {
        var reader = TraceReader(format: format)
        var fixes: [Fix] = []
        var start = 0
        do {
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...4096, using: &rng))
                try bytes[start..<end].withUnsafeBytes { try reader.consume($0) { fixes.append($0) } }
                start = end
            }
            try reader.finish { fixes.append($0) }
        } catch {
            #expect(error is TraceError)
        }
        #expect(reader.statistics.fixes == fixes.count)
        return fixes
    }

    @Test(arguments: [("berlin-drive-start.gpsd.json", TraceFormat.gpsdJSON), ("berlin-drive-start.gpx", TraceFormat.gpx)])
    func mutatedSamplesNeverCrashOrGiveImplausibleFixes(name: String, format: TraceFormat) throws {
        let sample = Array(try #require(FileManager.default.contents(atPath: Paths.traces + "/" + name)))
        var rng = SeededGenerator(seed: 0x7472_6163_6573 ^ UInt64(sample.count))
        var fixes = 0
        for round in 0..<60 {
            let bytes = NMEAFuzzTests.mutate(sample, &rng)
            let read = Self.read(bytes, round % 2 == 0 ? format : nil, &rng)
            #expect(read.allSatisfy(isPlausible), "\(read.filter { !isPlausible($0) }.prefix(2))")
            fixes += read.count
        }
        #expect(fixes > 1_000)
    }
}
