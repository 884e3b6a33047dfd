import Foundation
import GRDB
@testable import GeoWakeDaemon
import Testing

/// The fix path's store writes without GRDB's transaction and argument machinery: `DaemonStore.write` and
/// `RawStatement`, on a real SQLite file.
@Suite struct RawStatementTests {
    static func store() throws -> (DaemonStore, String) {
        let directory = NSTemporaryDirectory() + "raw-statement-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return (try DaemonStore(path: directory + "/geowake.sqlite"), directory)
    }

    @Test func aWriteCommitsAllItsStatementsAndAWriteThatThrowsLeavesNoneAndTheNextOneCommits() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let client = ClientKey(uid: 1000, clientID: "org.example.raw")
        try store.write { transaction in
            try transaction.raw("INSERT INTO client (uid, clientID) VALUES (?, ?)").bind(1, client.uid).bind(2, client.clientID).run()
            let seq = try transaction.appendEvent("{\"n\":1}", for: client, at: 5)
            #expect(seq == 1)
        }
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.write { transaction in
                try transaction.appendEvent("{\"n\":2}", for: client, at: 6)
                throw Refused()
            }
        }
        #expect(throws: DatabaseError.self) {
            try store.write { transaction in
                try transaction.appendEvent("{\"n\":2}", for: client, at: 6)
                try transaction.raw("INSERT INTO outbox (uid, clientID, seq, event, created) VALUES (?, ?, 1, 'again', 0)")
                    .bind(1, client.uid).bind(2, client.clientID).run()
            }
        }
        let next = try store.write { transaction in try transaction.appendEvent("{\"n\":3}", for: client, at: 7) }
        #expect(next == 2)
        let rows = try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT seq, event, created FROM outbox ORDER BY seq") }
        #expect(rows.map { $0["seq"] as Int64 } == [1, 2])
        #expect(rows.map { $0["event"] as String } == ["{\"n\":1}", "{\"n\":3}"])
        #expect(rows.map { $0["created"] as Int64 } == [5, 7])
        let lastSeq = try store.queue.read { db in try Int64.fetchOne(db, sql: "SELECT lastSeq FROM client") }
        #expect(lastSeq == 2)
    }

    @Test func textNullAndIntegersAreBoundAsGivenAndTheFirstRowIsRead() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let texts = ["", "Zürich \u{1F30D} \"quoted\"", String(repeating: "x", count: 5000)]
        try store.write { transaction in
            for (n, text) in texts.enumerated() {
                try transaction.raw("INSERT INTO beaconRegion (uid, clientID, regionID, feature, since) VALUES (?, ?, ?, '{}', ?)")
                    .bind(1, UInt32.max).bind(2, "c").bind(3, text).bind(4, n == 1 ? nil : Int64.min + Int64(n)).run()
            }
        }
        let rows = try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT uid, regionID, since FROM beaconRegion ORDER BY rowid") }
        #expect(rows.map { $0["regionID"] as String } == texts)
        #expect(rows.map { $0["since"] as Int64? } == [Int64.min, nil, Int64.min + 2])
        #expect(rows.allSatisfy { $0["uid"] as Int64 == Int64(UInt32.max) })
        let read = try store.queue.read { db in
            try db.raw("SELECT length(regionID), since FROM beaconRegion WHERE uid = ? ORDER BY length(regionID) DESC")
                .bind(1, UInt32.max).run { ($0[0], $0[1]) }
        }
        #expect(read?.0 == 5000 && read?.1 == Int64.min + 2)
        let none = try store.queue.read { db in try db.raw("SELECT since FROM beaconRegion WHERE regionID = ?").bind(1, "absent").run() }
        #expect(none == nil)
    }
}
