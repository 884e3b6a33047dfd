import Foundation
import GeoWakeCore
@testable import GeoWakeDaemon
import GeoWakeProtocol
import Logging
import Testing
import TestSupport

/// A large request line read aside (`PreparedRequest`) is decided exactly as the same line read by the decisions: the
/// same reply, the same regions, the same error; and over a real socket, a connection's requests behind it wait for
/// it, in order, even when the client closes right after sending.
@Suite struct PreparedRequestTests {
    let directory = TemporaryDirectory()
    let connection = ConnectionID(serial: 1)
    let now = Timestamp(secondsSince1970: 1_700_000_000)

    func registeredDaemon(_ name: String) throws -> Daemon {
        let daemon = try Daemon(paths: DaemonPaths(socket: directory.file("\(name).sock"), state: directory.file("\(name).sqlite")),
                                trace: nil, speed: 1, durability: .normal, logger: Logger(label: "test"),
                                clock: DaemonClock(monotonic: { 0 }, wall: { Timestamp(secondsSince1970: 0) }))
        _ = daemon.core.take(.opened(connection, Peer(uid: 1000, gid: 1000, pid: 4242)), at: now, monotonic: 0)
        for line in [#"{"op":"hello","id":1,"protocol":1}"#, #"{"op":"register","id":2,"client":"org.example.large"}"#] {
            _ = daemon.settle(.request(connection, Array(line.utf8)[...]), at: now)
        }
        return daemon
    }

    /// What the daemon sent back to the request, and the regions it then lists, decided with or without preparing
    /// (after `before`, decided unprepared).
    func decide(_ line: String, preparing: Bool, in name: String, after before: String? = nil) throws -> (reply: [String: JSONValue], listed: [String]) {
        let daemon = try registeredDaemon(name)
        if let before { _ = daemon.settle(.request(connection, Array(before.utf8)[...]), at: now) }
        let bytes = Array(line.utf8)[...]
        let effects = daemon.settle(.request(connection, bytes, prepared: preparing ? PreparedRequest(bytes) : nil), at: now)
        let list = daemon.settle(.request(connection, Array(#"{"op":"list","id":9,"limit":1000}"#.utf8)[...]), at: now)
        let reply = try #require(try replies(effects).first)
        let listed = try #require(try replies(list).first?["result"]?["regions"]?.array).compactMap { $0["region"]?.string }
        return (reply, listed)
    }

    func replies(_ effects: [DaemonEffect]) throws -> [[String: JSONValue]] {
        try effects.compactMap { effect -> [String: JSONValue]? in
            guard case .send(connection, let line, _) = effect else { return nil }
            return try line.withUnsafeBytes { bytes in try JSONValue(parsing: bytes) }.object
        }
    }

    static func circle(_ id: String, _ n: Int) -> String {
        #"{"type":"Feature","id":"\#(id)","properties":{"radius":\#(50 + n % 7)},"geometry":{"type":"Point","coordinates":[\#(13.3 + Double(n) * 1e-4),52.5]}}"#
    }

    static let beacon = #"{"type":"Feature","id":"door","geometry":null,"properties":{"kind":"beacon","uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","major":1}}"#

    static func monitor(_ features: [String]) -> String {
        #"{"op":"monitor","id":3,"features":[\#(features.joined(separator: ","))]}"#
    }

    @Test func aPreparedMonitorOfCirclesAndABeaconRegionAddsWhatTheSameLineReadByTheDecisionsAdds() throws {
        let line = Self.monitor((0..<400).map { Self.circle("r\($0)", $0) } + [Self.beacon])
        let prepared = PreparedRequest(Array(line.utf8)[...])
        #expect(prepared.drafts?.count == 401, "every feature, the beacon region too, was loaded aside")
        let aside = try decide(line, preparing: true, in: "aside")
        let inline = try decide(line, preparing: false, in: "inline")
        #expect(aside.reply["result"]?["added"] == .integer(401))
        #expect(aside.reply == inline.reply)
        #expect(aside.listed.count == 401 && aside.listed.contains("door") && aside.listed == inline.listed)
    }

    @Test func aPreparedMonitorWithAnInvalidFeatureIsRefusedWithTheErrorTheDecisionsGiveItUnprepared() throws {
        var features = (0..<300).map { Self.circle("r\($0)", $0) }
        features[200] = #"{"type":"Feature","id":"bad","properties":{"radius":-5},"geometry":{"type":"Point","coordinates":[13.3,52.5]}}"#
        let line = Self.monitor(features)
        #expect(PreparedRequest(Array(line.utf8)[...]).drafts == nil, "a feature failed, so nothing loaded aside is used")
        let aside = try decide(line, preparing: true, in: "aside")
        let inline = try decide(line, preparing: false, in: "inline")
        #expect(aside.reply["error"]?["code"] == .string("badGeoJSON"))
        #expect(aside.reply["error"]?["message"]?.string?.hasPrefix("feature 201: radius") == true, "\(aside.reply)")
        #expect(aside.reply == inline.reply)
        #expect(aside.listed.isEmpty && inline.listed.isEmpty)
    }

    @Test func aPreparedMonitorAgainOfRegionsMonitoredAlreadyAddsOnlyTheNewOnesAsWhenReadUnprepared() throws {
        let first = Self.monitor((0..<300).map { Self.circle("r\($0)", $0) })
        let again = Self.monitor((0..<350).map { Self.circle("r\($0)", $0) })
        let aside = try decide(again, preparing: true, in: "aside", after: first)
        let inline = try decide(again, preparing: false, in: "inline", after: first)
        #expect(aside.reply["result"]?["added"] == .integer(50) && aside.reply["result"]?["unchanged"] == .integer(300), "\(aside.reply)")
        #expect(aside.reply == inline.reply)
        #expect(aside.listed.count == 350 && aside.listed == inline.listed)
    }

    @Test func aBeaconAndACircleSharingAnIdAreRefusedAsWhenTheLineIsReadUnprepared() throws {
        let line = Self.monitor((0..<300).map { Self.circle("r\($0)", $0) } + [Self.beacon, Self.circle("door", 1)])
        let aside = try decide(line, preparing: true, in: "aside")
        let inline = try decide(line, preparing: false, in: "inline")
        #expect(aside.reply["ok"] == .bool(false))
        #expect(aside.reply == inline.reply)
        #expect(aside.listed == inline.listed)
    }

    @Test func aLargeMonitorIsAnsweredBeforeTheRequestsPipelinedBehindItWhichSeeItsRegions() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let client = try RawClient.registered(daemon, as: "org.example.large")
        let line = Self.monitor((0..<900).map { Self.circle("region-with-a-long-name-\($0)", $0) })
        try #require(line.utf8.count >= LinePreparation.from, "the line is read aside: \(line.utf8.count) bytes")
        let behind = [#"{"op":"list","id":4,"limit":1000}"#, #"{"op":"regionState","id":5,"region":"region-with-a-long-name-7"}"#]
        client.sendRaw(Array(([line] + behind).joined(separator: "\n").utf8) + [10])
        var answered: [[String: Any]] = []
        while answered.count < 3, let message = client.receive() {
            if message["type"] as? String == "reply" { answered.append(message) }
        }
        #expect(answered.map { $0["id"] as? Int } == [3, 4, 5], "replies in request order: \(answered.map { $0["id"] ?? "?" })")
        #expect((answered.first?["result"] as? [String: Any])?["added"] as? Int == 900)
        #expect(((answered.dropFirst().first?["result"] as? [String: Any])?["regions"] as? [Any])?.count == 900)
        #expect(answered.last?["ok"] as? Bool == true)
    }

    @Test func aLargeMonitorSentJustBeforeTheClientShutsItsSideIsAnsweredAndStoredBeforeTheConnectionCloses() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let client = try RawClient.registered(daemon, as: "org.example.large")
        client.sendRaw(Array(Self.monitor((0..<900).map { Self.circle("r\($0)", $0) }).utf8) + [10])
        shutdown(client.fd, Int32(SHUT_WR))
        var messages: [[String: Any]] = []
        while let message = client.receive() { messages.append(message) }
        #expect(messages.count == 1 && (messages.first?["result"] as? [String: Any])?["added"] as? Int == 900,
                "answered, then the connection closed: \(messages)")
        let again = try RawClient.registered(daemon, as: "org.example.large")
        let listed = (try again.request("list", ["limit": 1000])["result"] as? [String: Any])?["regions"] as? [Any]
        #expect(listed?.count == 900)
    }
}
