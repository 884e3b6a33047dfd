import GeoWakeCore
import Foundation
import Testing
@testable import Traces
import TestSupport

/// Millions of random and mutated bytes: the reader must not crash, must not emit a fix outside the
/// valid ranges, and must keep its counts consistent. Seeded, so a failure reproduces.
@Suite struct NMEAFuzzTests {
    /// Bytes that steer mutations into the parser's decisions rather than straight into checksum failures.
    static let interesting = Array("$*,.-+0123456789ANSEWVDTMKPG \r\n#!".utf8) + [0, 0xFF, 0x80]

    static func mutate(_ input: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...24, using: &rng) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: bytes[at] = interesting.randomElement(using: &rng)!
            case 1: bytes[at] = UInt8.random(in: 0...255, using: &rng)
            case 2: bytes.insert(contentsOf: (0..<Int.random(in: 1...40, using: &rng)).map { _ in
                        interesting.randomElement(using: &rng)! }, at: at)
            case 3: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...60, using: &rng)))
            default:
                let end = min(bytes.count, at + Int.random(in: 1...300, using: &rng))
                bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &rng))
            }
        }
        return bytes
    }

    /// Rewrites every `*hh` to match its sentence, so mutated fields reach the decoders.
    static func repairChecksums(_ bytes: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        var start: Int?
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "$"): start = i + 1
            case UInt8(ascii: "\n"): start = nil
            case UInt8(ascii: "*"):
                if let s = start, i + 2 < bytes.count {
                    let sum = bytes[s..<i].reduce(UInt8(0), ^)
                    bytes[i + 1] = hex[Int(sum >> 4)]
                    bytes[i + 2] = hex[Int(sum & 15)]
                }
                start = nil
            default: break
            }
            i += 1
        }
    }

    /// Feeds `bytes` in random chunks with random flushes; returns what the reader counted.
    @discardableResult
    static func check(_ bytes: [UInt8], _ rng: inout SeededGenerator) -> TraceStatistics {
        var reader = NMEAReader()
        var fixes = 0
        var implausible: [Fix] = []
        let emit = { (fix: Fix) in
            fixes += 1
            if !isPlausible(fix) { implausible.append(fix) }
        }
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int.random(in: 1...8192, using: &rng))
            bytes[start..<end].withUnsafeBytes { reader.consume($0, emit) }
            if Int.random(in: 0..<50, using: &rng) == 0 { reader.flush(emit) }
            start = end
        }
        reader.finish(emit)
        let statistics = reader.statistics
        #expect(implausible.isEmpty, "\(implausible.prefix(3))")
        #expect(statistics.fixes == fixes)
        #expect(statistics.checksumErrors + statistics.malformed + statistics.unchecked <= statistics.sentences)
        return statistics
    }

    @Test func mutatedCapturesNeverCrashOrGiveImplausibleFixes() throws {
        var rng = SeededGenerator(seed: 0x6765_6F77_616B_6521)
        let logs = try FileManager.default.contentsOfDirectory(atPath: Paths.gpsdTraces).filter { $0.hasSuffix(".log") }
            .sorted().map { Array(try #require(FileManager.default.contents(atPath: Paths.gpsdTraces + "/" + $0))) }
        #expect(logs.count >= 6)
        var total = 0
        var seen = TraceStatistics()
        while total < 60_000_000 {
            var bytes = Self.mutate(logs.randomElement(using: &rng)!, &rng)
            if Bool.random(using: &rng) { Self.repairChecksums(&bytes) }
            let statistics = Self.check(bytes, &rng)
            seen.fixes += statistics.fixes
            seen.malformed += statistics.malformed
            seen.checksumErrors += statistics.checksumErrors
            total += bytes.count
        }
        // The mutations reached every outcome: fixes, decoder rejections and checksum failures.
        #expect(seen.fixes > 10_000 && seen.malformed > 1_000 && seen.checksumErrors > 1_000)
    }

    @Test func randomBytesNeverCrashOrGiveImplausibleFixes() {
        var rng = SeededGenerator(seed: 0x6E6D_6561_2D72_6E64)
        for _ in 0..<96 {
            var bytes = (0..<65_536).map { _ in
                Bool.random(using: &rng) ? Self.interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            Self.repairChecksums(&bytes)
            Self.check(bytes, &rng)
        }
    }
}
