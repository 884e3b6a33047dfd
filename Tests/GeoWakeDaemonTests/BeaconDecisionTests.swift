import Beacons
import Foundation
import GeoWakeCore
@testable import GeoWakeDaemon
import GeoWakeProtocol
import Logging
import Testing
import TestSupport

/// The daemon's decisions about beacon sightings with no socket, scanner or clock: sightings and scanner reports go in
/// (`DaemonCore.take`), and one `store` batch comes out with the region events, the rows of the regions they changed
/// and a trace's position.
@Suite struct BeaconDecisionTests {
    let directory = TemporaryDirectory()
    let connection = ConnectionID(serial: 1)
    let client = ClientKey(uid: 1000, clientID: "org.example.beacons")
    let start = Timestamp(secondsSince1970: 1_700_000_000)
    let source = "trace:traces/beacons-shop.jsonl"

    /// A daemon over the bundled beacon trace (never pumped: nothing is scanned) with one client monitoring the
    /// shop's entrance, major 1 of its UUID, with the contract's 30 s exit timeout.
    func daemon() throws -> Daemon {
        let daemon = try Daemon(paths: DaemonPaths(socket: directory.file("geowaked.sock"), state: directory.file("geowake.sqlite")),
                                trace: nil, speed: 1, durability: .normal, logger: Logger(label: "test"), beaconSource: source,
                                clock: DaemonClock(monotonic: { 0 }, wall: { Timestamp(secondsSince1970: 0) }))
        _ = daemon.core.take(.opened(connection, Peer(uid: 1000, gid: 1000, pid: 4242)), at: start, monotonic: 0)
        for line in [#"{"op":"hello","id":1,"protocol":1}"#, #"{"op":"register","id":2,"client":"org.example.beacons"}"#,
                     #"{"op":"monitor","id":3,"features":[{"type":"Feature","id":"entrance","geometry":null,"properties":{"kind":"beacon","uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","major":1}}]}"#] {
            _ = daemon.settle(.request(connection, Array(line.utf8)[...]), at: start)
        }
        try daemon.store.sync()
        return daemon
    }

    func sighting(at time: Timestamp, major: UInt16 = 1) throws -> BeaconSighting {
        let uuid = try #require(BeaconUUID("F7826DA6-4FA2-4E98-8024-BC5B71E0893E"))
        return BeaconSighting(time: time, address: 0xC3_11_22_33_44_01, rssi: -72,
                              beacon: Beacon(format: .iBeacon, uuid: uuid, major: major, minor: 0, measuredPower: -59, company: 0x004C))
    }

    func batches(_ effects: [DaemonEffect]) -> [StoreBatch] {
        effects.compactMap { if case .store(let batch) = $0 { batch } else { nil } }
    }

    @Test func aTracesSightingsAreOneBatchWithTheEnterTheRegionsRowAndTheTracesPosition() throws {
        let daemon = try daemon()
        let seen = try sighting(at: start + 1)
        let effects = daemon.core.take(.traceSightings([try sighting(at: start + 1, major: 2), seen], position: 7, ended: false),
                                       at: start + 5, monotonic: 5)
        let batch = try #require(batches(effects).first)
        #expect(effects == [.store(batch)], "nothing is sent before the batch is stored")
        #expect(batch.events.map(\.client) == [client] && batch.events[0].launchReason == .beacon)
        #expect(batch.events[0].line.contains(#""event":"enter""#) && batch.events[0].line.contains(#""region":"entrance""#))
        #expect(batch.beaconRegions.map(\.regionID) == ["entrance"] && batch.beaconRegions[0].lastSeen == seen.time.millisecondsSince1970)
        #expect(batch.sourcePosition?.source == "beacons " + source && batch.sourcePosition?.position == 7)
        #expect(batch.time == seen.time, "events are stamped by the last sighting, not the loop's clock")
    }

    @Test func aScannersReportWhileNoClientWantsBeaconsCountsForNothing() throws {
        let daemon = try daemon()
        #expect(daemon.core.beacons.state == "idle", "never pumped, nothing started scanning")
        #expect(daemon.core.take(.scanner(.sightings([try sighting(at: start + 1)])), at: start + 1, monotonic: 1).isEmpty)
        #expect(daemon.core.take(.scanner(.unavailable("no adapter")), at: start + 1, monotonic: 1).isEmpty)
        #expect(daemon.core.beacons.state == "idle" && daemon.core.beacons.lastSighting == nil)
    }

    @Test func aLiveRegionExitsWhenTheDeadlineInputComesAfterTheExitTimeout() throws {
        let daemon = try daemon()
        daemon.core.beacons.state = "running"   // what the loop sets once it starts scanning
        let entered = batches(daemon.core.take(.scanner(.sightings([try sighting(at: start + 1)])), at: start + 1, monotonic: 1))
        #expect(entered.first?.events.count == 1)
        #expect(daemon.core.take(.beaconDeadline, at: start + 30, monotonic: 30).isEmpty, "29 s after the sighting it is still inside")
        let exit = try #require(batches(daemon.core.take(.beaconDeadline, at: start + 32, monotonic: 32)).first)
        #expect(exit.events.map(\.client) == [client] && exit.events[0].line.contains(#""event":"exit""#))
        #expect(exit.beaconRegions.map(\.regionID) == ["entrance"] && exit.beaconRegions[0].lastSeen == nil)
    }

    @Test func aStopMonitoringWhoseWriteFailsLeavesTheBeaconRegionInsideAndOneThatIsStoredRemovesItWithItsExit() throws {
        let daemon = try daemon()
        let seen = try #require(batches(daemon.core.take(.traceSightings([try sighting(at: start + 1)], position: 0, ended: false),
                                                         at: start + 1, monotonic: 1)).first)
        _ = daemon.core.take(.stored(seen.events, queued: daemon.commit(seen).queued), at: start + 1, monotonic: 1)
        let stop = Array(#"{"op":"stopMonitoring","id":4,"regions":["entrance"]}"#.utf8)[...]

        #expect(batches(daemon.core.take(.request(connection, stop), at: start + 2, monotonic: 2)).count == 1)
        #expect(daemon.core.beacons.subscriptions.region(client, "entrance")?.lastSighting != nil, "nothing leaves before the write is stored")
        let failed = daemon.core.take(.stored([], queued: [], requests: [.failure(ProtocolError("internal", "the disk is full"))]),
                                      at: start + 2, monotonic: 2)
        #expect(!failed.contains(.tell(.eventQueued(client, reason: .beacon))), "no exit for a region still stored")
        #expect(daemon.core.beacons.subscriptions.region(client, "entrance")?.lastSighting != nil, "a failed write leaves it monitored, inside")

        let removed = daemon.settle(.request(connection, stop), at: start + 3)
        #expect(removed.contains(.tell(.eventQueued(client, reason: .beacon))))
        #expect(daemon.core.beacons.subscriptions.region(client, "entrance") == nil)
        let exits = try daemon.store.pendingEvents(client, after: 0, limit: 10).filter { $0.event.contains("regionRemoved") }
        #expect(exits.count == 1 && exits.allSatisfy { $0.event.contains(#""event":"exit""#) }, "one exit, stored with the deletion")
    }
}
