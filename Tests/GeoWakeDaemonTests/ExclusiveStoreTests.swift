import Foundation
import GRDB
@testable import GeoWakeDaemon
import Testing

/// The store as the daemon writes it for latency: held exclusively while the daemon runs, and the outbox keyed by
/// its primary key alone (migration `v20-latency-outbox-without-rowid`).
@Suite(.serialized) struct ExclusiveStoreTests {
    @Test func aSecondDaemonOnTheSameStoreExitsWithAnErrorNamingTheStoreAndTheFirstKeepsServing() throws {
        let daemon = DaemonProcess()
        try daemon.start(speed: 1)
        let client = try RawClient.registered(daemon, as: "org.example.first")
        let second = Process()
        second.executableURL = URL(fileURLWithPath: DaemonProcess.binary)
        second.arguments = ["--source", "trace:" + DaemonProcess.root + "/traces/berlin-drive.nmea",
                            "--socket", daemon.directory + "/second.sock", "--state", daemon.directory + "/geowake.sqlite"]
        let errors = Pipe()
        second.standardError = errors
        try second.run()
        let deadline = Date().addingTimeInterval(10)
        while second.isRunning && Date() < deadline { usleep(10_000) }
        let exited = !second.isRunning
        if !exited { second.terminate() }
        second.waitUntilExit()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(exited && second.terminationReason == .exit && second.terminationStatus != 0)
        #expect(output.split(separator: "\n").first == """
            Error: the store \(daemon.directory)/geowake.sqlite is in use by another process \
            (geowaked holds it exclusively while it runs)
            """)
        #expect(!output.contains("Fatal error"))
        #expect(!FileManager.default.fileExists(atPath: daemon.directory + "/second.sock"))
        let status = try client.request("status")
        let clients = (status["result"] as? [String: Any])?["clients"] as? [[String: Any]]
        #expect(clients?.map { $0["client"] as? String } == ["org.example.first"])
    }

    @Test func eventsQueuedInTheRowidOutboxAreDeliveredInOrderAfterTheUpgradeAndAnAckDeletesThemFromTheRekeyedTable() throws {
        let daemon = DaemonProcess()
        let path = daemon.directory + "/geowake.sqlite"
        let client = "org.example.upgrade"
        do {
            let queue = try DatabaseQueue(path: path)
            try DaemonStore.migrator.migrate(queue, upTo: "v2-wake-app-state")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO client (uid, clientID, lastSeq) VALUES (?, ?, 3)", arguments: [getuid(), client])
                for seq in 1...3 {
                    try db.execute(sql: "INSERT INTO outbox (uid, clientID, seq, event, created) VALUES (?, ?, ?, ?, 0)",
                                   arguments: [getuid(), client, seq, "{\"event\":\"status\",\"state\":\"queued \(seq)\"}"])
                }
            }
        }
        try daemon.start()
        let raw = try RawClient.registered(daemon, as: client)
        raw.collectEvents(until: 3)
        #expect(raw.events.map { $0["seq"] as? Int } == [1, 2, 3])
        #expect(raw.events.map { ($0["event"] as? [String: Any])?["state"] as? String } == ["queued 1", "queued 2", "queued 3"])
        let acked = try raw.request("ack", ["seq": 2])
        #expect((acked["result"] as? [String: Any])?["pending"] as? Int == 1)
        daemon.stop(signal: SIGTERM)
        let queue = try DatabaseQueue(path: path)
        try queue.read { db in
            let create = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'outbox'")
            #expect(create?.hasSuffix("WITHOUT ROWID") == true)
            #expect(try Int.fetchAll(db, sql: "SELECT seq FROM outbox") == [3])
        }
    }
}
