import Foundation
import GeoWakeCore
@testable import GeoWakeDaemon
import GeoWakeProtocol
import Logging
import Testing
import TestSupport

/// The daemon's decisions about connections with no socket: inputs in (`DaemonCore.take`), effects out. Only the store
/// is real (a SQLite file); nothing listens, and the core has no clock to read (`DaemonCore` holds none).
@Suite struct SessionDecisionTests {
    let directory = TemporaryDirectory()
    let first = ConnectionID(serial: 1), second = ConnectionID(serial: 2)
    let peer = Peer(uid: 1000, gid: 1000, pid: 4242)
    let now = Timestamp(secondsSince1970: 1_700_000_000)
    func daemon() throws -> Daemon {
        try Daemon(paths: DaemonPaths(socket: directory.file("geowaked.sock"), state: directory.file("geowake.sqlite")), trace: nil,
                          speed: 1, durability: .normal, logger: Logger(label: "test"),
                          clock: DaemonClock(monotonic: { 0 }, wall: { Timestamp(secondsSince1970: 0) }))
    }

    func request(_ daemon: Daemon, _ connection: ConnectionID, _ line: String, after: ConnectionID? = nil) -> [DaemonEffect] {
        daemon.settle(.request(connection, Array(line.utf8)[...], after: after), at: now)
    }

    /// The reply lines among `effects` for `connection`, parsed.
    func replies(_ effects: [DaemonEffect], to connection: ConnectionID) throws -> [[String: JSONValue]] {
        try effects.compactMap { effect -> [String: JSONValue]? in
            guard case .send(connection, let line, _) = effect else { return nil }
            return try line.withUnsafeBytes { bytes in try JSONValue(parsing: bytes) }.object
        }
    }

    func registered(_ daemon: Daemon, _ connection: ConnectionID, as client: String) throws -> [DaemonEffect] {
        _ = daemon.core.take(.opened(connection, peer), at: now, monotonic: 0)
        _ = request(daemon, connection, #"{"op":"hello","id":1,"protocol":1}"#)
        return request(daemon, connection, #"{"op":"register","id":2,"client":"\#(client)"}"#)
    }

    @Test func anOpenedConnectionIsGreetedAndARequestBeforeHelloIsRefused() throws {
        let daemon = try daemon()
        let greeting = try replies(daemon.core.take(.opened(first, peer), at: now, monotonic: 0), to: first)
        #expect(greeting.first?["type"]?.string == "hello" && greeting.first?["server"]?.string == "geowaked")
        let refused = try replies(request(daemon, first, #"{"op":"list","id":7}"#), to: first)
        #expect(refused.first?["error"]?.object?["code"]?.string == "helloRequired")
        #expect(refused.first?["id"]?.int64 == 7)
    }

    @Test func aRegisteredConnectionReadsItsClientsOutboxFromTheStart() throws {
        let daemon = try daemon()
        let effects = try registered(daemon, first, as: "org.example.one")
        #expect(try replies(effects, to: first).first?["ok"] == .bool(true))
        #expect(effects.contains(.readOutbox(first, fromStart: true)))
        let client = ClientKey(uid: 1000, clientID: "org.example.one")
        #expect(effects.contains(.tell(.connectionOpened(client, pid: 4242, launchedFor: nil))))
        #expect(daemon.core.sessions[first]?.client == ClientKey(uid: 1000, clientID: "org.example.one"))
    }

    @Test func registeringAsAConnectedClientWaitsForTheOtherConnectionsEarlierRequests() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        _ = daemon.core.take(.opened(second, peer), at: now, monotonic: 0)
        _ = request(daemon, second, #"{"op":"hello","id":1,"protocol":1}"#)
        let line = #"{"op":"register","id":2,"client":"org.example.one"}"#
        let asked = request(daemon, second, line)
        #expect(asked == [.takeEarlierRequests(of: first, thenAgain: second, request: Array(line.utf8))])
        // Given again after them: this daemon launches nothing, so the first connection is no background instance
        // to take over from, and the client stays the first connection's.
        let busy = try replies(request(daemon, second, line, after: first), to: second)
        #expect(busy.first?["error"]?.object?["code"]?.string == "clientBusy")
        #expect(daemon.core.sessions[first]?.client != nil && daemon.core.sessions[second]?.client == nil)
    }

    @Test func aLineTooLongIsRefusedAndTheConnectionClosesAfterTheReply() throws {
        let daemon = try daemon()
        _ = daemon.core.take(.opened(first, peer), at: now, monotonic: 0)
        let effects = daemon.core.take(.lineTooLong(first), at: now, monotonic: 0)
        #expect(try replies(effects, to: first).first?["error"]?.object?["code"]?.string == "messageTooLarge")
        #expect(effects.last == .closeAfterSending(first))
    }

    @Test func disablingAClientClosesItsConnectionOnceItsQueuedLinesAreSentAndTellsTheLauncher() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        _ = daemon.core.take(.opened(second, peer), at: now, monotonic: 0)
        _ = request(daemon, second, #"{"op":"hello","id":1,"protocol":1}"#)
        let effects = request(daemon, second, #"{"op":"disable","id":3,"client":"org.example.one"}"#)
        #expect(effects.contains(.closeAfterSending(first)))
        #expect(effects.contains(.tell(.disabled(ClientKey(uid: 1000, clientID: "org.example.one")))))
        #expect(try replies(effects, to: second).first?["ok"] == .bool(true))
    }

    @Test func aClosedConnectionsClientIsNoLongerConnectedAndTheLauncherHearsSo() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        _ = daemon.core.take(.opened(second, peer), at: now, monotonic: 0)
        _ = request(daemon, second, #"{"op":"hello","id":1,"protocol":1}"#)
        func connected() throws -> Bool? {
            try replies(request(daemon, second, #"{"op":"clients","id":4}"#), to: second).first?["result"]?.object?["clients"]?
                .array?.first?.object?["connected"]?.bool
        }
        #expect(try connected() == true)
        #expect(daemon.core.take(.closed(first), at: now, monotonic: 0) == [.tell(.connectionClosed(ClientKey(uid: 1000, clientID: "org.example.one")))])
        #expect(try connected() == false)
        #expect(daemon.core.sessions[first] == nil)
    }

    /// A relaunched subscriber monitors its regions again with the very features; a numeric id (the loader reads
    /// `7` as "7") was looked up as no id at all, and the region then refused as its own duplicate.
    @Test func aRegionWithANumericIDMonitoredAgainAsItWasIsUnchangedNotADuplicate() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.numbered")
        func monitor(_ id: Int, radius: Int) throws -> [String: JSONValue]? {
            let line = #"{"op":"monitor","id":\#(id),"features":[{"type":"Feature","id":7,"#
                + #""properties":{"radius":\#(radius)},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}]}"#
            return try replies(request(daemon, first, line), to: first).first
        }
        #expect(try monitor(3, radius: 100)?["result"]?.object?["added"]?.int == 1)
        let again = try monitor(4, radius: 100)?["result"]?.object
        #expect(again?["unchanged"]?.int == 1 && again?["added"]?.int == 0, "\(String(describing: again))")
        #expect(try monitor(5, radius: 150)?["error"]?.object?["code"]?.string == "duplicateRegion", "a changed region 7 is still refused")
    }

    @Test func aRequestThatWritesIsOneStoreEffectAndIsAnsweredOnlyOnceTheLoopCommittedIt() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        let effects = daemon.core.take(.request(first, Array(#"{"op":"startStandard","id":3}"#.utf8)[...]), at: now, monotonic: 0)
        guard effects.count == 1, case .store(let batch) = effects[0] else {
            Issue.record("expected one store effect, got \(effects)")
            return
        }
        #expect(batch.requests.map(\.changes) == [[.startService(.standard, options: #"{"distanceFilter":0.0}"#, ClientKey(uid: 1000, clientID: "org.example.one"))]])
        #expect(try daemon.store.subscriptions().isEmpty, "the decision wrote nothing")
        let outcome = daemon.commit(batch)
        #expect(try daemon.store.subscriptions().map(\.kind) == ["standard"])
        let answered = daemon.core.take(.stored(batch.events, queued: outcome.queued, requests: outcome.requests), at: now, monotonic: 0)
        #expect(try replies(answered, to: first).map { $0["id"]?.int64 } == [3])
    }

    @Test func aRegistrationTheStoreRefusesLeavesTheConnectionUnregisteredAndTellsTheLauncherNothing() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        _ = request(daemon, first, #"{"op":"disable","id":3,"client":"org.example.one"}"#)
        _ = daemon.core.take(.closed(first), at: now, monotonic: 0)
        _ = daemon.core.take(.opened(second, peer), at: now, monotonic: 0)
        _ = request(daemon, second, #"{"op":"hello","id":1,"protocol":1}"#)
        let effects = request(daemon, second, #"{"op":"register","id":2,"client":"org.example.one"}"#)
        #expect(try replies(effects, to: second).first?["error"]?.object?["code"]?.string == "clientDisabled")
        #expect(daemon.core.sessions[second]?.client == nil)
        #expect(!effects.contains { if case .tell(.connectionOpened) = $0 { true } else { false } })
        #expect(daemon.core.awaiting.isEmpty)
    }

    @Test func linesAfterAnAckAreAnsweredAfterItAnUnknownOpAndAMalformedLineToo() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        var effects = request(daemon, first, #"{"op":"ack","id":3,"seq":0}"#)
        effects += request(daemon, first, #"{"op":"monk","id":4}"#)
        effects += request(daemon, first, "not json")
        let answered = try replies(effects, to: first)
        #expect(answered.map { $0["id"]?.int64 } == [3, 4, nil])
        #expect(answered.map { $0["error"]?.object?["code"]?.string } == [nil, "unknownOp", "badJSON"])
    }

    @Test func anUnknownOpBeforeHelloIsRefusedAsEveryOtherRequestBeforeHelloIs() throws {
        let daemon = try daemon()
        _ = daemon.core.take(.opened(first, peer), at: now, monotonic: 0)
        let refused = try replies(request(daemon, first, #"{"op":"monk","id":5}"#), to: first)
        #expect(refused.map { $0["error"]?.object?["code"]?.string } == ["helloRequired"])
    }

    @Test func aHelloWhoseClientIsNotTextAndAnAckOfANegativeSeqAreBadRequests() throws {
        let daemon = try daemon()
        _ = daemon.core.take(.opened(first, peer), at: now, monotonic: 0)
        let hello = try replies(request(daemon, first, #"{"op":"hello","id":1,"protocol":1,"client":5}"#), to: first)
        #expect(hello.first?["error"]?.object?["code"]?.string == "badRequest")
        _ = try registered(daemon, second, as: "org.example.one")
        var effects = request(daemon, second, #"{"op":"ack","id":3,"seq":-1}"#)
        effects += daemon.settle(.requestsRead, at: now)
        #expect(try replies(effects, to: second).first?["error"]?.object?["code"]?.string == "badRequest")
    }

    @Test func aClientThatDisablesItselfHasItsOwnConnectionClosedOnceTheReplyIsSent() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        let effects = request(daemon, first, #"{"op":"disable","id":3,"client":"org.example.one"}"#)
        #expect(try replies(effects, to: first).map { $0["ok"] } == [.bool(true)])
        #expect(effects.contains(.closeAfterSending(first)))
    }

    @Test func stopMonitoringRemovesAndListsARepeatedIDOnceAndRefusesAReplyOverTheLineLimit() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        let circle = #"{"type":"Feature","id":"a","properties":{"radius":50},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
        #expect(try replies(request(daemon, first, #"{"op":"monitor","id":3,"features":[\#(circle)]}"#), to: first).first?["ok"] == .bool(true))
        let removed = try replies(request(daemon, first, #"{"op":"stopMonitoring","id":4,"regions":["a","a"]}"#), to: first)
        #expect(removed.first?["result"]?.object?["removed"] == .array(["a"]))
        // Unique ids just under the line limit: the reply's members are longer than the request's.
        var ids: [String] = [], length = #"{"op":"stopMonitoring","id":5,"regions":[]}"#.utf8.count
        while length + 12 < Connection.maximumLine {
            ids.append(String(format: "r%09d", ids.count))
            length += 13
        }
        let line = #"{"op":"stopMonitoring","id":5,"regions":["# + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        #expect(line.utf8.count <= Connection.maximumLine)
        let refused = try replies(request(daemon, first, line), to: first)
        #expect(refused.first?["error"]?.object?["code"]?.string == "badRequest")
        let fewer = #"{"op":"stopMonitoring","id":6,"regions":["# + ids.prefix(1000).map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        #expect(try replies(request(daemon, first, fewer), to: first).first?["error"]?.object?["code"]?.string == "unknownRegion")
    }

    @Test func aMonitorErrorNamesTheFeatureByItsPlaceInTheRequestCountedFromOneBeaconRegionsAmongThem() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        func circle(_ id: String, radius: String = "50") -> String {
            #"{"type":"Feature","id":"\#(id)","properties":{"radius":\#(radius)},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
        }
        let beacon = #"{"type":"Feature","id":"shop","properties":{"kind":"beacon","uuid":"f7826da6-4fa2-4e98-8024-bc5b71e0893e"},"geometry":null}"#
        func message(_ features: [String]) throws -> String? {
            let line = #"{"op":"monitor","id":3,"features":["# + features.joined(separator: ",") + "]}"
            let error = try replies(request(daemon, first, line), to: first).first?["error"]?.object
            #expect(error?["code"]?.string == "badGeoJSON")
            return error?["message"]?.string
        }
        #expect(try message([beacon, circle("a", radius: "-1")])?.hasPrefix("feature 2: ") == true)
        #expect(try message([circle("d"), beacon, circle("d")]) == #"feature 3: duplicate id "d" (first used by feature 1 of request)"#)
        #expect(try message([circle("a"), circle("")])?.hasPrefix("feature 2: ") == true)
        #expect(try replies(request(daemon, first, #"{"op":"list","id":4}"#), to: first).first?["result"]?.object?["regions"] == .array([]),
                "nothing was added")
    }

    @Test func aLargeMonitorReadInTwoHalvesAddsWhatOneReadingAddsAndNamesTheFirstFaultyFeatureInOrder() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        func circle(_ id: String, radius: Int = 50) -> String {
            #"{"type":"Feature","id":"\#(id)","properties":{"radius":\#(radius)},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
        }
        func monitor(_ features: [String]) throws -> [String: JSONValue]? {
            let line = #"{"op":"monitor","id":3,"features":["# + features.joined(separator: ",") + "]}"
            return try replies(request(daemon, first, line), to: first).first
        }
        let ids = (0..<300).map { "c\($0)" }
        var duplicated = ids.map { circle($0) }
        duplicated[299] = circle("c0")
        #expect(try monitor(duplicated)?["error"]?.object?["message"]?.string == #"feature 300: duplicate id "c0" (first used by feature 1 of request)"#)
        var faulty = ids.map { circle($0) }
        faulty[249] = circle("c249", radius: -1)
        faulty[9] = circle("c9", radius: -1)
        #expect(try monitor(faulty)?["error"]?.object?["message"]?.string?.hasPrefix("feature 10: ") == true)
        #expect(try monitor(ids.map { circle($0) })?["result"]?.object?["added"] == .integer(300))
        let listed = try replies(request(daemon, first, #"{"op":"list","id":4}"#), to: first).first?["result"]?.object?["regions"]?.array
        #expect(listed?.compactMap { $0.object?["region"]?.string } == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func aMonitorsRegionsEnterTheIndexWhileItsWriteCommitsAndLeaveItWhenTheWriteFails() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        let client = ClientKey(uid: 1000, clientID: "org.example.one")
        func monitor(_ id: String, _ requestID: Int) -> [DaemonEffect] {
            let circle = #"{"type":"Feature","id":"\#(id)","properties":{"radius":50},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
            return daemon.core.take(.request(first, Array(#"{"op":"monitor","id":\#(requestID),"features":[\#(circle)]}"#.utf8)[...]), at: now, monotonic: 0)
        }
        for (id, requestID, fails) in [("a", 3, true), ("b", 4, false)] {
            let effects = monitor(id, requestID)
            guard case .store(let batch)? = effects.first, effects.count == 1 else {
                Issue.record("a monitor is one store effect, not \(effects)")
                return
            }
            #expect(daemon.core.regions.entry(client, id) == nil, "nothing before the loop commits")
            #expect(daemon.core.hasAlongsideWork(among: 1))
            _ = daemon.core.take(.storing(requests: 1), at: now, monotonic: 0)
            #expect(daemon.core.regions.entry(client, id) != nil, "in the index while the write commits")
            let outcome: Result<RequestWrite.Outcome, ProtocolError> = fails
                ? .failure(ProtocolError("internal", "the disk is full")) : daemon.commit(batch).requests[0]
            let answered = try replies(daemon.settle(.stored([], queued: [], requests: [outcome]), at: now), to: first)
            #expect(answered.map { $0["ok"] } == [.bool(!fails)])
            #expect((daemon.core.regions.entry(client, id) != nil) == !fails, "a failed write leaves no region behind")
        }
        #expect(daemon.core.regions.regionIDs(of: client) == ["b"])
    }

    @Test func aMonitoredFeatureWithoutAnIDIsRefusedInTheProtocolsWordsNotTheCommandLines() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        let circle = #"{"type":"Feature","properties":{"radius":50},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
        let refused = try replies(request(daemon, first, #"{"op":"monitor","id":3,"features":[\#(circle)]}"#), to: first)
        let error = refused.first?["error"]?.object
        #expect(error?["code"]?.string == "badGeoJSON")
        #expect(error?["message"]?.string == #"feature 1: missing id (neither "id" nor "properties.id")"#)
    }

    @Test func theAcksOfATurnAreOneBatchAnsweredInTheirOrderEachFailingAlone() throws {
        let daemon = try daemon()
        _ = try registered(daemon, first, as: "org.example.one")
        for line in [#"{"op":"ack","id":3,"seq":0}"#, #"{"op":"ack","id":4,"seq":"x"}"#, #"{"op":"ack","id":5,"seq":9}"#, #"{"op":"ack","id":6,"seq":0}"#] {
            #expect(request(daemon, first, line).isEmpty, "an ack waits for the turn's other requests")
        }
        let effects = daemon.core.take(.requestsRead, at: now, monotonic: 0)
        #expect(effects.count == 1 && effects.allSatisfy { if case .store(let batch) = $0 { batch.requests.count == 4 } else { false } })
        let answered = try replies(daemon.settle(effects, at: now), to: first)
        #expect(answered.map { $0["id"]?.int64 } == [3, 4, 5, 6])
        #expect(answered.map { $0["error"]?.object?["code"]?.string } == [nil, "badRequest", "badRequest", nil])
    }
}
