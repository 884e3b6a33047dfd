import CNATS
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
        #expect(connection.completePublishes(timeoutMilliseconds: 30_000, failuresBefore: 0) == nil)
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

    @Test("A partition consumer lets a whole read of 4096 messages go unacknowledged: asked for no limit (-1), the server stored 1000 and reads of single-fix messages stopped there")
    func partitionConsumerAllowsAWholeReadUnacknowledged() async throws {
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        _ = try PartitionSubscription(connection, partition: 0, from: 1)
        // The consumer as the server stored it: a read's own count depends on how its messages arrive, this does not.
        var info: UnsafeMutablePointer<jsConsumerInfo>?
        var code = jsErrCode(0)
        let status = js_GetConsumerInfo(&info, connection.jetStream, FleetLayout.fixesStream(0),
                                        PartitionSubscription.durableName(0), nil, &code)
        #expect(status == NATS_OK)
        defer { jsConsumerInfo_Destroy(info) }
        let stored = try #require(info).pointee.Config.pointee.MaxAckPending
        #expect(stored >= Int64(2 * FleetTiming().fetchBatch), "the server stores MaxAckPending \(stored)")
    }
}
