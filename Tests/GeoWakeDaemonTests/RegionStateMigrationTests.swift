import Foundation
import GeoWakeCore
import GRDB
@testable import GeoWakeDaemon
import Testing

/// Region states live in `regionState`, keyed by the region's row (migration `v27-region-state-table`), and a
/// `monitor`'s regions in one batch row (`v28-region-batches`): a store written with the states in the region rows
/// keeps every state and feature across the upgrades, and a state row never outlives its region.
@Suite struct RegionStateMigrationTests {
    static let owner = ClientKey(uid: 1000, clientID: "org.example.region-state")

    static func directory() throws -> String {
        let directory = NSTemporaryDirectory() + "region-state-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    static func feature(_ id: String) -> String {
        "{\"type\":\"Feature\",\"id\":\"\(id)\",\"properties\":{\"radius\":50},\"geometry\":{\"type\":\"Point\",\"coordinates\":[13.4,52.5]}}"
    }

    static func restored(_ store: DaemonStore) throws -> [String: SharedRegions.Entry] {
        var entries: [SharedRegions.Entry] = []
        let states = try store.forEachStoredRegion(of: store.regionOwners()) { _, entry in entries.append(entry) }
        states.restore(&entries)
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.regionID, $0) })
    }

    @Test func aStoreWithStatesInItsRegionRowsKeepsEveryStateAndFeatureAfterTheUpgrade() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/geowake.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try DaemonStore.migrator.migrate(queue, upTo: "v26-sync-mark")
            try queue.write { db in
                for (id, state, since, dwellSent) in [("home", "inside", Int64(5_000), 1), ("work", "outside", 7_000, 0),
                                                       ("gym", "unknown", nil, 0), ("park", "outside", nil, 0)] as [(String, String, Int64?, Int)] {
                    try db.execute(sql: "INSERT INTO region (uid, clientID, regionID, feature, state, since, dwellSent) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                   arguments: [Self.owner.uid, Self.owner.clientID, id, Self.feature(id), state, since, dwellSent])
                }
            }
        }
        let store = try DaemonStore(path: path)
        let entries = try Self.restored(store)
        #expect(entries.count == 4)
        #expect(entries["home"].map { [$0.state == .inside, $0.since == Timestamp(millisecondsSince1970: 5_000), $0.dwellSent] } == [true, true, true])
        #expect(entries["work"].map { [$0.state == .outside, $0.since == Timestamp(millisecondsSince1970: 7_000), !$0.dwellSent] } == [true, true, true])
        #expect(entries["gym"].map { [$0.state == .unknown, $0.since == nil, !$0.dwellSent] } == [true, true, true])
        #expect(entries["park"].map { [$0.state == .outside, $0.since == nil] } == [true, true])
        #expect(try entries["home"].map { try store.regionFeatures([$0.row]) } == [entries["home"]!.row: Self.feature("home")])
        try store.read { db throws in
            // The four rows are one batch now (`v28-region-batches`).
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'region'") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count FROM regionBatch") == 4)
            // An unknown region needs no state row.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM regionState") == 3)
        }
    }

    @Test func aRemovedRegionsStateGoesWithItSoARegionAtItsReusedRowidStartsUnknown() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try DaemonStore(path: directory + "/geowake.sqlite")
        // Two monitors: "b" is its batch's only region, so its removal frees its row.
        let a = try store.write { transaction in try transaction.insertRegions(["a"], features: [Self.feature("a")], of: Self.owner) }
        let b = try store.write { transaction in try transaction.insertRegions(["b"], features: [Self.feature("b")], of: Self.owner) }
        try store.write { transaction in try transaction.saveRegionStates([Self.inside(a[0], "a"), Self.inside(b[0], "b")]) }
        try store.write { transaction in try transaction.deleteRegion(row: b[0]) }
        // A state decided before the removal, committed after it, is not kept either.
        try store.write { transaction in try transaction.saveRegionStates([Self.inside(b[0], "b")]) }
        let again = try store.write { transaction in try transaction.insertRegions(["c"], features: [Self.feature("c")], of: Self.owner) }
        #expect(again == b)
        let entries = try Self.restored(store)
        #expect(entries["a"]?.state == .inside && entries["a"]?.dwellSent == true)
        #expect(entries["c"].map { [$0.state == .unknown, $0.since == nil, !$0.dwellSent] } == [true, true, true])
        #expect(entries["b"] == nil)
    }

    @Test func aRegionRemovedFromTheMiddleOfItsBatchIsGoneAfterARestartAndGetsNoStateWhileTheOthersKeepTheirs() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try DaemonStore(path: directory + "/geowake.sqlite")
        let rows = try store.write { transaction in
            try transaction.insertRegions(["a", "b", "c"], features: ["a", "b", "c"].map(Self.feature), of: Self.owner)
        }
        try store.write { transaction in try transaction.saveRegionStates(zip(rows, ["a", "b", "c"]).map { Self.inside($0, $1) }) }
        try store.write { transaction in try transaction.deleteRegion(row: rows[1]) }
        try store.write { transaction in try transaction.saveRegionStates([Self.inside(rows[1], "b")]) }
        let entries = try Self.restored(store)
        #expect(entries.keys.sorted() == ["a", "c"])
        #expect(entries["c"]?.row == rows[2] && entries["c"]?.state == .inside)
        #expect(try store.regionFeatures(rows) == [rows[0]: Self.feature("a"), rows[2]: Self.feature("c")])
        #expect(entries["a"]?.state == .inside)
        // All three were decided at once: the batch's state; the removed one's is nobody's.
        try store.read { db throws in #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM regionState") == 0) }
        // The batch's last regions removed, the batch goes, with its removals.
        try store.write { transaction in
            try transaction.deleteRegion(row: rows[0])
            try transaction.deleteRegion(row: rows[2])
        }
        try store.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM regionBatch") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM regionRemoved") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM regionState") == 0)
        }
        #expect(try Self.restored(store).isEmpty)
    }

    @Test func aStateTakenByAWholeBatchIsTheBatchsAndARegionsOwnStateOverridesIt() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try DaemonStore(path: directory + "/geowake.sqlite")
        let ids = ["a", "b", "c", "d", "e"]
        // Two monitors, their rows consecutive: a run of the fix after them covers both batches and one more row.
        let first = try store.write { transaction in try transaction.insertRegions(Array(ids[0..<3]), features: ids[0..<3].map(Self.feature), of: Self.owner) }
        let second = try store.write { transaction in try transaction.insertRegions(Array(ids[3...]), features: ids[3...].map(Self.feature), of: Self.owner) }
        let other = ClientKey(uid: 1001, clientID: "org.example.other")
        let third = try store.write { transaction in try transaction.insertRegions(["x", "y"], features: ["x", "y"].map(Self.feature), of: other) }
        let rows = first + second
        let outside = { (row: Int64, id: String, owner: ClientKey) in
            SharedRegions.Change(entry: .init(row: row, owner: owner, regionID: id, state: .outside,
                                              since: Timestamp(millisecondsSince1970: 3_000)), event: nil)
        }
        try store.write { transaction in
            try transaction.saveRegionStates(zip(rows, ids).map { outside($0, $1, Self.owner) } + [outside(third[0], "x", other)])
        }
        try store.read { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT state FROM regionBatch ORDER BY firstRow") == ["outside", "outside", "unknown"])
            #expect(try Int64.fetchAll(db, sql: "SELECT row FROM regionState") == [third[0]])
        }
        try store.write { transaction in try transaction.saveRegionStates([Self.inside(rows[1], "b")]) }
        var entries = try Self.restored(store)
        #expect(entries.mapValues(\.state) == ["a": .outside, "b": .inside, "c": .outside, "d": .outside, "e": .outside, "x": .outside, "y": .unknown])
        #expect(entries["a"]?.since == Timestamp(millisecondsSince1970: 3_000) && entries["b"]?.since == Timestamp(millisecondsSince1970: 1_000))
        // The whole batch again: its regions' own rows go, the batch's state is theirs.
        try store.write { transaction in try transaction.saveRegionStates(zip(first, ids).map { Self.inside($0, $1) }) }
        try store.read { db throws in #expect(try Int64.fetchAll(db, sql: "SELECT row FROM regionState") == [third[0]]) }
        entries = try Self.restored(store)
        #expect(entries.filter { $0.value.state == .inside }.keys.sorted() == ["a", "b", "c"])
        #expect(entries["a"]?.dwellSent == true && entries["d"]?.dwellSent == false)
    }

    @Test func regionRowsOfAnEarlierStoreBecomeOneBatchPerRunOfAnOwnersConsecutiveRowsKeepingTheirRows() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/geowake.sqlite"
        let other = ClientKey(uid: 1001, clientID: "org.example.other")
        do {
            let queue = try DatabaseQueue(path: path)
            try DaemonStore.migrator.migrate(queue, upTo: "v27-region-state-table")
            try queue.write { db in
                // Rows 1, 2 of the owner, 3 of the other, 5 of the owner (4 was removed).
                for (row, owner, id) in [(1, Self.owner, "a"), (2, Self.owner, "b"), (3, other, "x"), (5, Self.owner, "c")] {
                    try db.execute(sql: "INSERT INTO region (rowid, uid, clientID, regionID, feature) VALUES (?, ?, ?, ?, ?)",
                                   arguments: [row, owner.uid, owner.clientID, id, Self.feature(id)])
                }
                try db.execute(sql: "INSERT INTO regionState (row, state, since, dwellSent) VALUES (5, 'inside', 9000, 0)")
            }
        }
        let store = try DaemonStore(path: path)
        try store.read { db throws in
            let batches = try Row.fetchAll(db, sql: "SELECT firstRow, clientID, count FROM regionBatch ORDER BY firstRow")
                .map { "\($0[0] as Int64) \($0[1] as String) \($0[2] as Int64)" }
            #expect(batches == ["1 \(Self.owner.clientID) 2", "3 \(other.clientID) 1", "5 \(Self.owner.clientID) 1"])
        }
        let entries = try Self.restored(store)
        #expect(entries.mapValues(\.row) == ["a": 1, "b": 2, "x": 3, "c": 5])
        #expect(entries["c"]?.state == .inside && entries["c"]?.since == Timestamp(millisecondsSince1970: 9_000))
        #expect(try store.regionFeatures([2, 5]) == [2: Self.feature("b"), 5: Self.feature("c")])
        #expect(try store.regionRowAfterLast() == 6)
    }

    static func inside(_ row: Int64, _ id: String) -> SharedRegions.Change {
        SharedRegions.Change(entry: .init(row: row, owner: owner, regionID: id, state: .inside,
                                          since: Timestamp(millisecondsSince1970: 1_000), dwellSent: true), event: nil)
    }
}
