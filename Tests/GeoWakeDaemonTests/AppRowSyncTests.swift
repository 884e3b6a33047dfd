import Foundation
import GeoWakeCore
@testable import GeoWakeDaemon
import GRDB
import Logging
import Testing
import TestSupport

/// When the launcher's app rows reach the disk (`ProcessSupervisor.persist`): a client the user started has no
/// process the daemon could stop, so its row joins the turn's one sync instead of syncing at once.
@Suite struct AppRowSyncTests {
    let directory = TemporaryDirectory()
    let connection = ConnectionID(serial: 1)
    let start = Timestamp(secondsSince1970: 1_700_000_000)

    func syncMark(_ daemon: Daemon) throws -> Int64 {
        try daemon.store.read { db in try Int64.fetchOne(db, sql: "SELECT value FROM syncMark") } ?? -1
    }

    func appState(_ daemon: Daemon) throws -> String? {
        try daemon.store.read { db in try String.fetchOne(db, sql: "SELECT record FROM app WHERE clientID = 'org.example.byhand'") }
    }

    @Test func aClientTheUserStartedStoresItsStateInTheTurnsSyncNotInOneOfItsOwn() throws {
        let wall: @Sendable () -> Timestamp = { [start] in start }
        let launcher = ProcessSupervisor(logDirectory: directory.file("logs"), logger: Logger(label: "test"), clock: wall)
        let daemon = try Daemon(paths: DaemonPaths(socket: directory.file("geowaked.sock"), state: directory.file("geowake.sqlite")),
                                trace: nil, speed: 1, durability: .normal, activation: launcher, logger: Logger(label: "test"),
                                clock: DaemonClock(monotonic: { 0 }, wall: wall))
        daemon.begin()
        daemon.syncCommits()
        let before = try syncMark(daemon)
        daemon.feed(.opened(connection, Peer(uid: 1000, gid: 1000, pid: 4242)), at: start, monotonic: 0)
        for line in [#"{"op":"hello","id":1,"protocol":1}"#, #"{"op":"register","id":2,"client":"org.example.byhand"}"#] {
            daemon.feed(.request(connection, Array(line.utf8)[...]), at: start, monotonic: 0)
        }
        let running = try #require(try appState(daemon))
        #expect(running.contains(#""state":"running""#), "the row says the client runs: \(running)")
        #expect(try syncMark(daemon) == before, "no sync of its own")
        #expect(daemon.store.syncPending, "the row waits for the turn's sync, with the register")

        daemon.syncCommits()
        #expect(try syncMark(daemon) == before + 1 && !daemon.store.syncPending, "one sync for the turn")
    }
}
