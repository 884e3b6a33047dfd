import Foundation
import Testing
import TestSupport
@testable import Fleet

/// A partition's backlog of one-fix messages from many devices, read from the middle of the stream's last file
/// block, as a worker resumes it after a takeover. nats-server 2.9 counts a consumer's pending messages on every
/// delivery; for a consumer filtered to part of a stream and resuming in the first half of the last block, that
/// count scanned the block before it, for every message (over 10 ms each here): the partitions crawled at a few
/// messages a second (docs/fleet.md, "Single-fix input").
@Suite(.serialized, .timeLimit(.minutes(2))) struct SingleFixBacklogTests {
    @Test("A partition of one-fix messages from 1,000 devices, resumed a sixth into the stream's last file block, is read to its end within seconds (it crawled at a few messages a second)")
    func resumedBacklogOfSingleFixesIsReadQuickly() async throws {
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let line = Array(#"{"time":"2024-06-03T23:50:00.000Z","lat":52.5504055,"lon":13.403458667,"hAcc":2.2}"#.utf8)
        // 30,000 messages of about 150 bytes stored: all in the first file block (8 MB), which is the last one.
        let total = 30_000, resumeAt: UInt64 = 5001
        try line.withUnsafeBytes { bytes in
            for i in 0..<total { try connection.publishAsync("geowake.in.0.fix.d-\(i % 1000)", bytes, messageID: "m\(i)") }
        }
        #expect(connection.completePublishes(timeoutMilliseconds: 30_000, failuresBefore: 0) == nil)
        let subscription = try PartitionSubscription(connection, partition: 0, from: resumeAt)
        let timing = FleetTiming()
        var sequences: [UInt64] = []
        let deadline = ContinuousClock.now + .seconds(15)
        while sequences.count < total - Int(resumeAt) + 1, ContinuousClock.now < deadline {
            _ = try subscription.read(batch: timing.fetchBatch, maxBytes: timing.fetchBytes, timeoutMilliseconds: 1) {
                sequences.append($0.sequence)
            }
        }
        #expect(sequences.count == total - Int(resumeAt) + 1, "read \(sequences.count) of \(total - Int(resumeAt) + 1) in 15 s")
        #expect(sequences.elementsEqual(resumeAt...UInt64(total)), "not every message once, in stream order")
    }
}
