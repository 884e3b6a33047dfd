import Foundation
import Testing

/// How the daemon writes the store off a fix's way to its subscribers: acks of one loop turn in one transaction,
/// and the WAL checkpointed after the turn's deliveries instead of inside a fix's commit.
@Suite(.serialized) struct StoreWriteTests {
    /// A client with standard updates that has read the whole trace's events (none acked).
    static func clientAtTheEndOfTheTrace(_ daemon: DaemonProcess, as clientID: String) throws -> RawClient {
        try daemon.start()
        let client = try RawClient.registered(daemon, as: clientID)
        _ = try client.request("startStandard")
        ProtocolTests.endOfTrace(client)
        return client
    }

    @Test func acksSentInOneWriteAreAnsweredInOrderEachWithThePendingCountAfterItAndARequestBehindThemSeesThemAll() throws {
        let daemon = DaemonProcess()
        let client = try Self.clientAtTheEndOfTheTrace(daemon, as: "org.example.acks")
        let last = try #require(client.events.last?["seq"] as? Int)
        let batch = [(1, 3), (2, 10), (3, last + 1), (4, 7)].map { "{\"id\":\($0.0),\"op\":\"ack\",\"seq\":\($0.1)}\n" }
        client.sendRaw(Array((batch.joined() + "{\"id\":5,\"op\":\"status\"}\n").utf8))
        let replies = (0..<5).compactMap { _ in client.receive() }
        #expect(replies.map { $0["id"] as? Int } == [1, 2, 3, 4, 5])
        let results = replies.map { $0["result"] as? [String: Any] }
        #expect(results[0]?["acked"] as? Int == 3)
        #expect(results[0]?["pending"] as? Int == last - 3)
        #expect(results[1]?["pending"] as? Int == last - 10)
        #expect(errorCode(replies[2]) == "badRequest")
        #expect(results[3]?["acked"] as? Int == 7)
        #expect(results[3]?["pending"] as? Int == last - 10)
        let clients = results[4]?["clients"] as? [[String: Any]]
        #expect(clients?.first { $0["client"] as? String == "org.example.acks" }?["pending"] as? Int == last - 10)
    }

    @Test func theWriteAheadLogIsCheckpointedWhileATraceIsReplayedAndStaysNearItsThousandPages() throws {
        let daemon = DaemonProcess()
        let client = try Self.clientAtTheEndOfTheTrace(daemon, as: "org.example.wal")
        #expect(client.events.count == 1201)
        // 1,200 fixes commit about 20 MB of pages; checkpoints every 1,000 pages (4 MB) keep the log from growing.
        let size = try FileManager.default.attributesOfItem(atPath: daemon.directory + "/geowake.sqlite-wal")[.size] as? Int
        #expect((size ?? 0) > 0)
        #expect((size ?? .max) < 8 << 20)
    }
}
