import Foundation
import GeoWakeCore
@testable import GeoWakeDaemon
import GeoWakeProtocol
import Logging
import Testing
import TestSupport

/// The daemon's decisions about fixes and region timers with no socket and no clock: a fix goes in (`DaemonCore.take`)
/// and one `store` effect comes out, with the events, region states and memories it describes; nothing is written
/// until the loop commits it, and its events go out only once the loop says what was queued (`stored`).
@Suite struct FixDecisionTests {
    let directory = TemporaryDirectory()
    let connection = ConnectionID(serial: 1)
    let client = ClientKey(uid: 1000, clientID: "org.example.fix")
    let start = Timestamp(secondsSince1970: 1_700_000_000)

    func daemon(monitoring rules: String = "") throws -> Daemon {
        let daemon = try Daemon(paths: DaemonPaths(socket: directory.file("geowaked.sock"), state: directory.file("geowake.sqlite")),
                                trace: nil, speed: 1, durability: .normal, logger: Logger(label: "test"),
                                clock: DaemonClock(monotonic: { 0 }, wall: { Timestamp(secondsSince1970: 0) }))
        for line in [#"{"op":"hello","id":1,"protocol":1}"#, #"{"op":"register","id":2,"client":"org.example.fix"}"#,
                     #"{"op":"monitor","id":3\#(rules),"features":[{"type":"Feature","id":"depot","properties":{"radius":100},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}]}"#] {
            if line.contains("hello") { _ = daemon.core.take(.opened(connection, Peer(uid: 1000, gid: 1000, pid: 4242)), at: start, monotonic: 0) }
            _ = daemon.settle(.request(connection, Array(line.utf8)[...]), at: start)
        }
        try daemon.store.sync()   // as the loop's turn ends: the requests' commits are on disk
        return daemon
    }

    func fix(at time: Timestamp, latitude: Double = 52.5) -> Fix {
        Fix(time: time, coordinate: Coordinate(latitude: latitude, longitude: 13.4), horizontalAccuracy: 5, mode: .threeD)
    }

    /// The batches among `effects`.
    func batches(_ effects: [DaemonEffect]) -> [StoreBatch] {
        effects.compactMap { if case .store(let batch) = $0 { batch } else { nil } }
    }

    @Test func aFixIntoARegionIsOneStoreBatchAndNothingIsWrittenOrSentBeforeTheLoopCommitsIt() throws {
        let daemon = try daemon()
        let effects = daemon.core.take(.fix(fix(at: start + 1), replayed: nil), at: start + 1, monotonic: 1)
        let batch = try #require(batches(effects).first)
        #expect(effects == [.store(batch)], "nothing is sent before the batch is stored")
        #expect(batch.events.map(\.client) == [client] && batch.events.allSatisfy { $0.launchReason == .region && $0.line.contains(#""event":"enter""#) })
        #expect(batch.regionChanges.map(\.entry.state) == [.inside] && batch.time == start + 1)
        #expect(try daemon.store.pendingEvents(client, after: 0, limit: 10).isEmpty, "the decision wrote nothing")

        let queued = daemon.commit(batch).queued
        #expect(queued.map(\.event) == batch.events.map(\.line) && queued.map(\.client) == [client])
        let sent = daemon.core.take(.stored(batch.events, queued: queued), at: start + 1, monotonic: 1)
        #expect(sent == [.event(connection, queued[0], afterSync: false), .tell(.eventQueued(client, reason: .region))])
    }

    @Test func aFixThatChangesNothingStoresNothing() throws {
        let daemon = try daemon()
        let first = batches(daemon.core.take(.fix(fix(at: start + 1), replayed: nil), at: start + 1, monotonic: 1))
        #expect(first.count == 1)
        #expect(daemon.core.take(.fix(fix(at: start + 2), replayed: nil), at: start + 2, monotonic: 2).isEmpty)
        #expect(daemon.core.take(.regionDeadline, at: start + 3, monotonic: 3).isEmpty, "no change is waiting for a timer")
    }

    @Test func aDebouncedEntryIsDecidedByTheTimerInputAtTheTimeItIsGiven() throws {
        let daemon = try daemon(monitoring: #","debounce":4"#)
        let entered = batches(daemon.core.take(.fix(fix(at: start + 1), replayed: nil), at: start + 1, monotonic: 1))
        #expect(entered.allSatisfy { $0.events.isEmpty }, "the entry waits out its debounce")
        #expect(batches(daemon.core.take(.regionDeadline, at: start + 3, monotonic: 3)).allSatisfy { $0.events.isEmpty })
        let due = try #require(batches(daemon.core.take(.regionDeadline, at: start + 6, monotonic: 6)).first)
        #expect(due.events.map(\.client) == [client] && due.events[0].line.contains(#""event":"enter""#))
        #expect(due.time == start + 6 && due.regionChanges.map(\.entry.state) == [.inside])
    }

    @Test func aReplayedTracesPositionIsStoredWithTheNextBatchNotWithEachQuietFix() throws {
        let daemon = try daemon(monitoring: #","debounce":4"#)
        daemon.core.source = SourceFacts(description: "trace:drive.nmea", state: .running, isLive: false, lastFixTime: start + 100)
        func replayed(_ position: Int) -> FixSource.Replayed { FixSource.Replayed(position: position, isLast: false) }
        let outside = batches(daemon.core.take(.fix(fix(at: start + 1, latitude: 52.6), replayed: replayed(0)), at: start + 1, monotonic: 1))
        #expect(outside.map(\.regionChanges.count) == [1] && outside.first?.sourcePosition?.position == 0,
                "the region's first state goes with the fix's position")
        let pending = batches(daemon.core.take(.fix(fix(at: start + 2), replayed: replayed(1)), at: start + 2, monotonic: 2))
        #expect(pending.isEmpty, "an entry waiting out its debounce is not stored")
        #expect(daemon.core.take(.fix(fix(at: start + 3), replayed: replayed(2)), at: start + 3, monotonic: 3).isEmpty,
                "a quiet replayed fix writes nothing, as a live one")
        // The timer's batch carries the position of the last fix decided: a restart must not feed fix 1 again, or
        // the debounced entry would fire twice.
        let due = try #require(batches(daemon.core.take(.regionDeadline, at: start + 6, monotonic: 6)).first)
        #expect(due.events.count == 1 && due.sourcePosition?.source == "trace:drive.nmea" && due.sourcePosition?.position == 2)
        #expect(daemon.core.take(.fix(fix(at: start + 7), replayed: replayed(3)), at: start + 7, monotonic: 7).isEmpty,
                "once stored, the position waits for the next change")
    }

    @Test func aSilentSourceIsAnnouncedToSubscribedClientsAsAStatusBatch() throws {
        let daemon = try daemon()
        _ = daemon.core.take(.fix(fix(at: start + 1), replayed: nil), at: start + 1, monotonic: 1)
        #expect(daemon.core.take(.sourceCheck, at: start + 2, monotonic: 2).isEmpty, "one second without a fix is no silence")
        let silent = try #require(batches(daemon.core.take(.sourceCheck, at: start + 600, monotonic: 600)).first)
        #expect(silent.events.map(\.client) == [client] && silent.events[0].launchReason == nil)
        #expect(silent.events[0].line.contains(#""event":"status""#) && silent.regionChanges.isEmpty)
    }

    @Test func aStopMonitoringWhoseWriteFailsLeavesTheRegionMonitoredInsideAndOneThatIsStoredRemovesItWithItsExit() throws {
        let daemon = try daemon()
        let entered = try #require(batches(daemon.core.take(.fix(fix(at: start + 1), replayed: nil), at: start + 1, monotonic: 1)).first)
        _ = daemon.core.take(.stored(entered.events, queued: daemon.commit(entered).queued), at: start + 1, monotonic: 1)
        let stop = Array(#"{"op":"stopMonitoring","id":4,"regions":["depot"]}"#.utf8)[...]

        let refused = daemon.core.take(.request(connection, stop), at: start + 2, monotonic: 2)
        let batch = try #require(batches(refused).first)
        #expect(batch.requests.count == 1 && daemon.core.regions.entry(client, "depot")?.state == .inside,
                "nothing leaves memory before the write is stored")
        let failed = daemon.core.take(.stored([], queued: [], requests: [.failure(ProtocolError("internal", "the disk is full"))]),
                                      at: start + 2, monotonic: 2)
        #expect(!failed.contains(.readOutbox(connection, fromStart: false)) && !failed.contains(.tell(.eventQueued(client, reason: .region))),
                "no exit for a region still stored")
        #expect(daemon.core.regions.entry(client, "depot")?.state == .inside, "a failed write leaves the region monitored, inside")

        let removed = daemon.settle(.request(connection, stop), at: start + 3)
        #expect(removed.contains(.readOutbox(connection, fromStart: false)) && removed.contains(.tell(.eventQueued(client, reason: .region))))
        #expect(daemon.core.regions.entry(client, "depot") == nil)
        let exits = try daemon.store.pendingEvents(client, after: 0, limit: 10).filter { $0.event.contains("regionRemoved") }
        #expect(exits.count == 1 && exits.allSatisfy { $0.event.contains(#""event":"exit""#) }, "one exit, stored with the deletion")
    }
}
