import Foundation
import Testing

/// Per-client limits and hostile clients: each gets its answer and the daemon keeps serving the others.
@Suite(.serialized) struct LimitsTests {
    static func sourceState(_ client: RawClient) throws -> String? {
        let status = try client.request("status")
        return ((status["result"] as? [String: Any])?["source"] as? [String: Any])?["state"] as? String
    }

    @Test func pastThePendingLimitEventsAreDroppedAndAnAckBringsOneEventsDroppedStatusWithTheCount() throws {
        let daemon = DaemonProcess()
        try daemon.start(options: ["--max-pending", "5"])
        let client = try RawClient.registered(daemon, as: "org.example.slow")
        _ = try client.request("startStandard")
        let observer = try RawClient(daemon.socket)
        try observer.hello()
        for _ in 0..<500 where try Self.sourceState(observer) != "ended" { usleep(20_000) }
        client.collectEvents(until: 5)
        #expect(client.events.map { $0["seq"] as? Int } == [1, 2, 3, 4, 5])
        let acked = try client.request("ack", ["seq": 5])
        #expect((acked["result"] as? [String: Any])?["pending"] as? Int == 1)
        client.collectEvents(until: 6)
        let report = client.events.last?["event"] as? [String: Any]
        #expect(client.events.last?["seq"] as? Int == 6)
        #expect(report?["state"] as? String == "eventsDropped")
        // 1,200 fixes, each a location event, plus the end of the trace: all but the five delivered were dropped.
        #expect(report?["dropped"] as? Int == 1196)
    }

    @Test func aClientThatNeverReadsDoesNotStopAnotherFromGettingItsEvents() throws {
        let daemon = DaemonProcess()
        try daemon.start()
        let reader = try RawClient.registered(daemon, as: "org.example.reader")
        _ = try reader.request("startStandard")
        let silent = try RawClient.registered(daemon, as: "org.example.deaf")
        _ = try silent.request("startStandard")
        ProtocolTests.endOfTrace(reader)
        #expect(reader.events.count == 1201)
        #expect(errorCode(try reader.request("list")) == nil)
    }

    @Test func aTruncatedLineIsIgnoredUntilItsNewlineAndAHangUpMidLineHarmsNoOne() throws {
        let daemon = DaemonProcess()
        try daemon.start()
        let good = try RawClient(daemon.socket)
        try good.hello()
        do {
            let truncated = try RawClient(daemon.socket)
            try truncated.hello()
            truncated.sendRaw(Array("{\"id\":7,\"op\":\"li".utf8))
            usleep(100_000)
            truncated.sendRaw(Array("st\"}\n".utf8))
            let reply = try #require(truncated.receive())
            #expect(reply["id"] as? Int == 7)
            #expect(errorCode(reply) == "notRegistered")
            truncated.sendRaw(Array("{\"id\":8,\"op\":\"status\"".utf8))
        }
        #expect(errorCode(try good.request("status")) == nil)
    }
}
