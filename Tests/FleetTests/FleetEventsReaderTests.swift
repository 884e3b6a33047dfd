import Foundation
import Testing
import TestSupport
@testable import Fleet

/// `geowake fleet events` prints every stored event, however large the events messages (a million regions give
/// 170 KB ones) and whatever happened to messages given to an earlier reader of the same durable name.
@Suite(.serialized, .timeLimit(.minutes(2))) struct FleetEventsReaderTests {
    /// Stores `messages` events messages of `linesEach` event lines each (about 95 bytes a line), device `d-I`;
    /// returns how many events that is.
    static func store(_ cluster: NATSCluster, messages: Int, linesEach: Int) throws -> Int {
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let line = #"{"event":"enter","region":"r0000001","time":"2024-06-03T23:50:00.000Z","lat":52.5504055,"lon":13.403458667}"#
        let body = Array(String(repeating: line + "\n", count: linesEach).utf8)
        try body.withUnsafeBytes { bytes in
            for i in 0..<messages {
                try connection.publishAsync(FleetLayout.eventSubject(device: "d-\(i)"), bytes, messageID: "d-\(i):1")
            }
        }
        #expect(connection.completePublishes(timeoutMilliseconds: 30_000, failuresBefore: 0) == nil)
        return messages * linesEach
    }

    /// Every (sequence, index) printed, once each.
    static func places(_ output: String) throws -> Set<FleetRun.EventPlace> {
        var places = Set<FleetRun.EventPlace>()
        for line in output.split(separator: "\n") { places.insert(try FleetRun.split(String(line)).1) }
        return places
    }

    @Test("A reader of events messages larger in all than the server's max_pending gets every event in one run, and the server never cuts it as a slow consumer")
    func largeMessagesAreReadWithoutASlowConsumerCut() async throws {
        // 120 messages of 190 KB (23 MB) against a 16 MB max_pending: one fetch of them all overfills it, as 512
        // messages of a million-region fleet (88 MB) overfilled the default 64 MB.
        let cluster = try NATSCluster(nodes: 1, maxPending: "16MB")
        try await cluster.ready()
        let expected = try Self.store(cluster, messages: 120, linesEach: 2000)
        let run = try FleetRun.geowake(["fleet", "events", "--durable", "all", "--idle-exit", "2"] + cluster.fleetOptions)
        #expect(run.status == 0, "\(run.error)")
        #expect(try Self.places(run.output).count == expected)
        let serverLog = (try? String(contentsOfFile: "\(cluster.directory)/n1.log", encoding: .utf8)) ?? ""
        #expect(!serverLog.contains("Slow Consumer"))
    }

    @Test("Back-to-back 1 ms reads of the events, with more than half a batch already waiting, take every message exactly once, in stream order (libnats 3.4's fetch wrote past its list here)")
    func everyEventsMessageOnceReadingBackToBack() async throws {
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        let total = 4000
        _ = try Self.store(cluster, messages: total, linesEach: 10)
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let reader = try FleetEventsReader(connection, durable: "all")
        var sequences: [UInt64] = []
        var mostWaiting = 0, mostAsked = 0
        let deadline = ContinuousClock.now + .seconds(25)
        while sequences.count < total, ContinuousClock.now < deadline {
            mostWaiting = max(mostWaiting, reader.waiting)
            mostAsked = max(mostAsked, try reader.read(batch: 512, timeoutMilliseconds: 1) { sequences.append($0.streamSequence) })
        }
        #expect(sequences == (1...UInt64(total)).map { $0 })
        #expect(mostWaiting > 256, "the case under test did not arise: at most \(mostWaiting) messages waited (reads of up to \(mostAsked))")
        try connection.flush()   // the acks are published, not awaited
        // The server answers the flush once it has read the acks, and applies them to the consumer after that (a dry
        // run saw 329 of the last read's still pending): every one must be applied within seconds.
        var outstanding = try reader.outstanding()
        let applied = ContinuousClock.now + .seconds(5)
        while outstanding.unacknowledged > 0, ContinuousClock.now < applied {
            try await Task.sleep(for: .milliseconds(20))
            outstanding = try reader.outstanding()
        }
        #expect(outstanding.undelivered == 0 && outstanding.unacknowledged == 0, "every message read was acknowledged: \(outstanding)")
    }

    @Test("A reader's idle exit waits for messages given to an earlier reader of its durable name and never acknowledged, and prints them when they come again")
    func idleExitWaitsForUnacknowledgedMessages() async throws {
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        let expected = try Self.store(cluster, messages: 40, linesEach: 10)
        // A reader given 16 messages that acknowledges none: its connection cut before it could, as a slow consumer's is.
        do {
            let connection = try NATSConnection(servers: [cluster.servers], name: "cut")
            let reader = try FleetEventsReader(connection, durable: "all")
            struct Cut: Error {}
            _ = try? reader.read(batch: 16, timeoutMilliseconds: 2000) { _ in throw Cut() }
            #expect(try reader.outstanding().unacknowledged == 16)
        }
        let run = try FleetRun.geowake(["fleet", "events", "--durable", "all", "--idle-exit", "1"] + cluster.fleetOptions)
        #expect(run.status == 0, "\(run.error)")
        #expect(try Self.places(run.output).count == expected)
        #expect(run.error.contains("16 messages given and not acknowledged"))
    }
}
