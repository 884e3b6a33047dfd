import Foundation
import Testing

/// The daemon at the protocol level: a real `geowaked` process, real Unix sockets, raw JSON lines.
@Suite(.serialized) struct ProtocolTests {
    nonisolated(unsafe) static let regions: Any = {
        let data = FileManager.default.contents(atPath: DaemonProcess.root + "/regions/berlin-1k.geojson")!
        return try! JSONSerialization.jsonObject(with: data)
    }()

    func registeredClient(_ daemon: DaemonProcess, monitor: Bool = true) throws -> RawClient {
        let client = try RawClient(daemon.socket)
        try client.hello()
        let registered = try client.request("register", ["client": "org.example.tracker", "launch": ["/bin/true"]])
        #expect(registered["ok"] as? Bool == true)
        if monitor {
            let monitored = try client.request("monitor", ["features": Self.regions])
            #expect(monitored["ok"] as? Bool == true)
        }
        return client
    }

    static func endOfTrace(_ client: RawClient) {
        while let message = client.receive() {
            if message["type"] as? String == "event" { client.events.append(message) }
            if (message["event"] as? [String: Any])?["state"] as? String == "ended" { return }
        }
    }

    /// Event messages as text, without the store epoch (every restart takes a new one).
    static func lines(_ events: [[String: Any]]) -> [String] {
        events.map { message in
            var message = message
            message["epoch"] = nil
            return String(decoding: try! JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]), as: UTF8.self)
        }
    }

    @Test func aRegisteredClientGetsRegionEventsWithGaplessSequenceNumbersThenTheEndOfTheTrace() throws {
        let daemon = DaemonProcess()
        try daemon.start()
        let client = try registeredClient(daemon)
        Self.endOfTrace(client)
        let seqs = client.events.map { $0["seq"] as? Int ?? -1 }
        #expect(seqs == Array(1...max(1, client.events.count)))
        let kinds = client.events.compactMap { ($0["event"] as? [String: Any])?["event"] as? String }
        #expect(kinds.filter { $0 == "enter" }.count > 5)
        #expect(kinds.last == "status")
        let state = try client.request("regionState", ["region": "r000963"])
        #expect((state["result"] as? [String: Any])?["state"] as? String != "unknown")
    }

    @Test func requestsOutOfOrderOrGarbledGetTheirErrorCodesWhileAnotherClientIsServed() throws {
        let daemon = DaemonProcess()
        try daemon.start()
        let good = try registeredClient(daemon, monitor: false)
        let bad = try RawClient(daemon.socket)
        _ = bad.receive()
        #expect(errorCode(try bad.request("monitor", ["features": []])) == "helloRequired")
        #expect(errorCode(try bad.request("hello", ["protocol": "one"])) == "badRequest")
        #expect(errorCode(try bad.request("hello", ["protocol": 1])) == nil)
        #expect(errorCode(try bad.request("monitor", ["features": []])) == "notRegistered")
        #expect(errorCode(try bad.request("fly")) == "unknownOp")
        #expect(errorCode(try bad.request("register", ["client": "no spaces allowed"])) == "invalidClientID")
        #expect(errorCode(try bad.request("register", ["client": "a.b", "launch": ["relative"]])) == "invalidLaunch")
        bad.sendRaw(Array("{\"id\":1,\"op\":\n".utf8))
        #expect(errorCode(try #require(bad.receive())) == "badJSON")
        #expect(errorCode(try good.request("list")) == nil)
        #expect(errorCode(try good.request("regionState", ["region": "nowhere"])) == "unknownRegion")
        #expect(errorCode(try good.request("monitor", ["features": [["type": "Feature", "id": "x"]]])) == "badGeoJSON")
        #expect(errorCode(try good.request("register", ["client": "again"])) == "alreadyRegistered")
    }

    @Test func idsAreEchoedAsSentAndBooleansAndFractionsAreNotIntegers() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let client = try RawClient(daemon.socket)
        try client.hello()
        for id in ["1e3", "12345678901234567890", "-0.5", #""a\/b""#] {
            client.sendRaw(Array(#"{"id":\#(id),"op":"status"}"#.utf8) + [10])
            let reply = try #require(client.receiveLine())
            #expect(reply.hasPrefix(#"{"id":\#(id),"ok":true,"result":{"#), "\(reply)")
        }
        client.sendRaw(Array(#"{"id":true,"op":"fly"}"#.utf8) + [10])
        #expect(try #require(client.receiveLine()).hasPrefix(#"{"id":null,"error":{"code":"unknownOp""#))
        #expect(errorCode(try client.request("register", ["client": "org.example.typed"])) == nil)
        #expect(errorCode(try client.request("ack", ["seq": true])) == "badRequest")
        #expect(errorCode(try client.request("ack", ["seq": 1.5])) == "badRequest")
        #expect(errorCode(try client.request("startStandard", ["distanceFilter": false])) == "badRequest")
        #expect(errorCode(try client.request("monitor", ["features": [], "accuracyGating": 1])) == "badRequest")
    }

    @Test func anOversizedLineIsRefusedAndClosedWhileAnotherClientIsServed() throws {
        let daemon = DaemonProcess()
        try daemon.start()
        let good = try registeredClient(daemon, monitor: false)
        let bad = try RawClient(daemon.socket)
        try bad.hello()
        bad.sendRaw([UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 100))
        let refusal = try #require(bad.receive())
        #expect(errorCode(refusal) == "messageTooLarge")
        #expect(bad.receive() == nil)
        #expect(errorCode(try good.request("list")) == nil)
    }

    @Test func unacknowledgedEventsAreSentAgainInOrderAfterAReconnectAndAcknowledgedOnesAreNot() throws {
        let daemon = DaemonProcess()
        try daemon.start()
        var first: RawClient? = try registeredClient(daemon)
        Self.endOfTrace(first!)
        let delivered = first!.events
        first = nil
        let second = try registeredClient(daemon, monitor: false)
        second.collectEvents(until: delivered.count)
        #expect(Self.lines(second.events) == Self.lines(delivered))
        let lastSeq = delivered.last?["seq"] as? Int ?? 0
        let acked = try second.request("ack", ["seq": lastSeq])
        #expect((acked["result"] as? [String: Any])?["pending"] as? Int == 0)
        #expect(errorCode(try second.request("ack", ["seq": lastSeq + 1])) == "badRequest")
    }

    @Test func aDaemonKilledMidReplayResumesWithTheSameEventsNoneRepeatedNoneLost() throws {
        let reference = DaemonProcess()
        try reference.start()
        let whole = try registeredClient(reference)
        Self.endOfTrace(whole)
        reference.stop(signal: SIGTERM)

        let daemon = DaemonProcess()
        try daemon.start(speed: 300)
        var received: [[String: Any]] = []
        var client: RawClient? = try registeredClient(daemon)
        for round in 0..<3 {
            let deadline = Date().addingTimeInterval(0.8)
            while Date() < deadline, let message = client!.receive() {
                guard message["type"] as? String == "event" else { continue }
                let seq = message["seq"] as? Int ?? 0
                if seq > (received.last?["seq"] as? Int ?? 0) { received.append(message) }
                if round == 2, (message["event"] as? [String: Any])?["state"] as? String == "ended" { break }
            }
            if round < 2 {
                daemon.stop(signal: SIGKILL)
                client = nil
                try daemon.start(speed: 300)
                client = try registeredClient(daemon, monitor: false)
            }
        }
        while (received.last?["event"] as? [String: Any])?["state"] as? String != "ended", let message = client!.receive() {
            let seq = message["seq"] as? Int ?? 0
            if message["type"] as? String == "event", seq > (received.last?["seq"] as? Int ?? 0) { received.append(message) }
        }
        #expect(Self.lines(received) == Self.lines(whole.events))
    }
}
