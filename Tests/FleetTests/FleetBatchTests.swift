import Foundation
import GeoWakeCore
import JSONLines
import RegionIndex
import Regions
import Testing
import TestSupport
@testable import Fleet

/// Input messages that carry a batch of one device's fixes, and events messages that carry all the events
/// of one input message: the same events, in the same order, as one fix per message.
@Suite(.serialized, .timeLimit(.minutes(2))) struct FleetBatchTests {
    /// Each message's events as (sequence, lines), in the order the state emitted them.
    static func apply(_ payloads: [[UInt8]], regions: RegionIndex) throws -> [(sequence: UInt64, lines: [String])] {
        var state = try PartitionStateTests.state(regions: regions)
        var emitted: [(UInt64, [String])] = []
        for (offset, payload) in payloads.enumerated() {
            try state.apply(sequence: UInt64(offset + 1), subject: "geowake.in.0.fix.van", payload: payload,
                            sources: PartitionStateTests.sources(regions)) { device, sequence, lines in
                #expect(device == "van" && lines.count > 0)
                emitted.append((sequence, lines.lines))
            }
        }
        return emitted
    }

    static func batches(_ fixes: [Fix], of size: Int) -> [[UInt8]] {
        stride(from: 0, to: fixes.count, by: size).map { start in
            fixes[start..<min(start + size, fixes.count)].map(PartitionStateTests.payload).joined(separator: [0x0A]).map { $0 }
        }
    }

    @Test("Fix lines batched 37 to a message give replay's events, as one fix per message does; each message with events gives one events message, none gives none")
    func batchedFixLinesEqualSingleFixes() throws {
        let regions = RegionIndex(try RegionLoader.load(packageRoot + "/regions/berlin-1k.geojson"))
        let fixes = try PartitionStateTests.fixes()
        let single = try Self.apply(fixes.map(PartitionStateTests.payload), regions: regions)
        let batched = try Self.apply(Self.batches(fixes, of: 37), regions: regions)
        let replay = try FleetRun.replayLines("traces/berlin-drive.nmea")
        #expect(single.flatMap(\.lines) == replay)
        #expect(batched.flatMap(\.lines) == replay)
        #expect(batched.count < single.count && batched.count <= (fixes.count + 36) / 37)
        #expect(Set(batched.map(\.sequence)).count == batched.count, "one events message per input message")
    }

    @Test("NMEA sentences batched by epoch (the RMC with each) give the events of replay over the NMEA trace; a batch of junk is counted malformed")
    func batchedNMEAEqualsReplay() throws {
        let regions = RegionIndex(try RegionLoader.load(packageRoot + "/regions/berlin-1k.geojson"))
        let trace = try Array(Data(contentsOf: URL(fileURLWithPath: packageRoot + "/traces/berlin-drive.nmea")))
        // About 120 sentences (CRLF-ended) a message, cut before a GGA, an epoch's first sentence, so that every
        // epoch stays whole with its RMC (the date).
        var payloads: [[UInt8]] = [], current: [UInt8] = [], sentences = 0
        for sentence in trace.split(separator: 0x0A) {
            if sentences >= 120, sentence.dropFirst(3).starts(with: "GGA".utf8) {
                payloads.append(current)
                current.removeAll()
                sentences = 0
            }
            current += sentence + [0x0A]
            sentences += 1
        }
        payloads.append(current)
        #expect(payloads.count > 5)
        let batched = try Self.apply(payloads, regions: regions)
        #expect(batched.flatMap(\.lines) == (try FleetRun.replayLines("traces/berlin-drive.nmea")))

        var state = try PartitionStateTests.state(regions: regions)
        try state.apply(sequence: 1, subject: "geowake.in.0.fix.van", payload: Array("$GPRMC,garbage*00\n$GPGGA,x*11".utf8),
                        sources: PartitionStateTests.sources(regions)) { _, _, _ in Issue.record("no events from junk") }
        #expect(state.counts.malformed == 1 && state.counts.fixes == 0)
    }

    @Test("A batch with bad lines skips them and keeps the good ones; blank lines and CRLF are no lines")
    func badLinesInABatch() throws {
        let fixes = try PartitionStateTests.fixes().filter { $0.time != nil }
        let good = fixes.prefix(3).map { String(decoding: PartitionStateTests.payload($0), as: UTF8.self) }
        let text = [good[0], "not json", "", good[1] + "\r", #"{"lat":52.5,"lon":13.4}"#, good[2], ""].joined(separator: "\n")
        var state = try PartitionStateTests.state(regions: RegionIndex())
        try state.apply(sequence: 1, subject: "geowake.in.0.fix.van", payload: Array(text.utf8),
                        sources: PartitionStateTests.sources(RegionIndex())) { _, _, _ in }
        #expect(state.counts.fixes == 3 && state.counts.malformed == 2 && state.counts.messages == 1)
        #expect(state.problems.count == 2)
    }

    @Test("An events body larger than a message is cut at line ends, each part within the limit, nothing lost")
    func eventLinesParts() {
        var lines = EventLines()
        for i in 0..<100 { lines.append(Array(#"{"event":"enter","region":"r\#(i)"}"#.utf8)[...]) }
        #expect(lines.parts(limit: 1 << 20) == [0..<lines.bytes.count])
        let parts = lines.parts(limit: 700)
        #expect(parts.count > 1 && parts.allSatisfy { $0.count <= 700 && lines.bytes[$0.upperBound - 1] == 0x0A })
        #expect(parts.flatMap { lines.bytes[$0] } == lines.bytes)
    }

    @Test("Through a real worker: a device publishing 25 fixes a message gets the events of a device publishing one per message, which are replay's, in fewer events messages")
    func batchedThroughAWorker() async throws {
        let directory = TemporaryDirectory()
        let (cluster, worker, publisher) = try await FleetInputTests.fleetAndPublisher(directory)
        let fixes = try PartitionStateTests.fixes()
        for (position, fix) in fixes.enumerated() { try publisher.publish(fix, device: "single", position: position) }
        for start in stride(from: 0, to: fixes.count, by: 25) {
            try publisher.publish(fixes[start..<min(start + 25, fixes.count)], device: "batched", firstPosition: start)
        }
        try publisher.flush()
        #expect(publisher.published == 2 * fixes.count)
        let expected = try FleetRun.replayLines(FleetInputTests.trace)
        let run = try await FleetRun.eventsWithPlaces(cluster, durable: "check", expected: 2 * expected.count, timeout: .seconds(60))
        #expect(run["single"]?.map(\.line) == expected)
        #expect(run["batched"]?.map(\.line) == expected)
        let messages = { (device: String) in Set(run[device, default: []].map(\.place.sequence)).count }
        #expect(messages("batched") <= (fixes.count + 24) / 25 && messages("batched") < messages("single"))
        #expect(worker.isRunning)
    }
}
