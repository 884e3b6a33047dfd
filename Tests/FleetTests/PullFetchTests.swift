import Foundation
import Testing
import TestSupport
@testable import Fleet

/// A partition's reads through a real `nats-server`, with 1 ms requests as a worker makes them: a batch still
/// arriving when its read ends waits for the next read (more than half that batch: the case in which libnats
/// 3.4's fetch wrote past the end of its list), and the reads cross the fixes stream's 8 MB file blocks (where
/// nats-server 2.9 let 1 ms pull requests expire unserved, again and again).
@Suite(.serialized, .timeLimit(.minutes(2))) struct PullFetchTests {
    /// Reads a partition of 4,000 messages of 100 fixes (34 MB), pausing `pause` microseconds between reads;
    /// returns the stream sequences taken, in order, and the most messages found waiting before a read.
    static func readAll(pause: UInt32) async throws -> (sequences: [UInt64], mostWaiting: Int, perRead: Int, total: Int) {
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let line = #"{"time":"2024-06-03T23:50:00.000Z","lat":52.5504055,"lon":13.403458667,"hAcc":2.2}"# + "\n"
        let payload = Array(String(repeating: line, count: 100).utf8)
        let total = 4000
        try payload.withUnsafeBytes { bytes in
            for i in 0..<total { try connection.publishAsync("geowake.in.0.fix.d-\(i % 50)", bytes, messageID: "m\(i)") }
        }
        #expect(connection.completePublishes(timeoutMilliseconds: 30_000, failuresBefore: 0))
        let subscription = try PartitionSubscription(connection, partition: 0, from: 1)
        let timing = FleetTiming()
        var sequences: [UInt64] = []
        var mostWaiting = 0
        // Well inside the consumer's 60 s acknowledgement wait, after which a lost message would come again.
        let deadline = ContinuousClock.now + .seconds(30)
        while sequences.count < total, ContinuousClock.now < deadline {
            mostWaiting = max(mostWaiting, subscription.waiting)
            _ = try subscription.read(batch: timing.fetchBatch, maxBytes: timing.fetchBytes, timeoutMilliseconds: 1) {
                sequences.append($0.sequence)
            }
            if pause > 0 { usleep(pause) }
        }
        return (sequences, mostWaiting, timing.fetchBytes / payload.count, total)
    }

    @Test("Back-to-back 1 ms partition reads, with more than half a batch already waiting, take every message exactly once, in stream order (libnats 3.4's fetch aborted here)")
    func everyMessageOnceReadingBackToBack() async throws {
        let read = try await Self.readAll(pause: 0)
        #expect(read.sequences == (1...UInt64(read.total)).map { $0 })
        #expect(read.mostWaiting > read.perRead / 2, "the case under test did not arise: at most \(read.mostWaiting) of \(read.perRead) waited")
    }

    @Test("1 ms partition reads with work between them take every message exactly once, in stream order, across the stream's file blocks (they stopped at a block's start)")
    func everyMessageOnceAcrossFileBlocks() async throws {
        let read = try await Self.readAll(pause: 20_000)
        #expect(read.sequences == (1...UInt64(read.total)).map { $0 })
    }

    @Test("A partition read of single-fix messages takes a whole batch of 4096, not the 1000 the server allowed unacknowledged when the consumer asked for no limit")
    func aReadTakesMoreThanAThousandSmallMessages() async throws {
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let payload = Array(#"{"time":"2024-06-03T23:50:00.000Z","lat":52.5504055,"lon":13.403458667,"hAcc":2.2}"#.utf8)
        let total = 6000
        try payload.withUnsafeBytes { bytes in
            for i in 0..<total { try connection.publishAsync("geowake.in.0.fix.d-\(i % 50)", bytes, messageID: "m\(i)") }
        }
        #expect(connection.completePublishes(timeoutMilliseconds: 30_000, failuresBefore: 0))
        let subscription = try PartitionSubscription(connection, partition: 0, from: 1)
        let timing = FleetTiming()
        // The first read asks for 16 (no message size known yet); the second asks for a whole batch.
        var taken = try subscription.read(batch: timing.fetchBatch, maxBytes: timing.fetchBytes, timeoutMilliseconds: 2000) { _ in }
        taken = try subscription.read(batch: timing.fetchBatch, maxBytes: timing.fetchBytes, timeoutMilliseconds: 2000) { _ in }
        #expect(taken > 1000, "a read took \(taken) of the \(timing.fetchBatch) asked")
    }
}
