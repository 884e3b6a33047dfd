import Foundation
import GeoWakeCore
import GRDB
@testable import GeoWakeDaemon
import Testing

/// Region states live in `regionState`, keyed by the region's rowid (migration `v27-region-state-table`): a store
/// written with the states in the region rows keeps every state across the upgrade, and a state row never outlives
/// its region.
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
        #expect(try store.regionFeature("home", of: Self.owner) == Self.feature("home"))
        try store.read { db in
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(region)").map { $0["name"] as String }
            #expect(columns == ["uid", "clientID", "regionID", "feature"])
            // An unknown region needs no state row.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM regionState") == 3)
        }
    }

    @Test func aRemovedRegionsStateGoesWithItSoARegionAtItsReusedRowidStartsUnknown() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try DaemonStore(path: directory + "/geowake.sqlite")
        let rows = try store.write { transaction in try transaction.insertRegions(["a", "b"], features: [Self.feature("a"), Self.feature("b")], of: Self.owner) }
        let inside = { (row: Int64, id: String) in
            SharedRegions.Change(entry: .init(row: row, owner: Self.owner, regionID: id, state: .inside,
                                              since: Timestamp(millisecondsSince1970: 1_000), dwellSent: true), event: nil)
        }
        try store.write { transaction in try transaction.saveRegionStates([inside(rows[0], "a"), inside(rows[1], "b")]) }
        try store.write { transaction in try transaction.deleteRegion("b", of: Self.owner) }
        // A state decided before the removal, committed after it, is not kept either.
        try store.write { transaction in try transaction.saveRegionStates([inside(rows[1], "b")]) }
        let again = try store.write { transaction in try transaction.insertRegions(["c"], features: [Self.feature("c")], of: Self.owner) }
        #expect(again == [rows[1]])
        let entries = try Self.restored(store)
        #expect(entries["a"]?.state == .inside && entries["a"]?.dwellSent == true)
        #expect(entries["c"].map { [$0.state == .unknown, $0.since == nil, !$0.dwellSent] } == [true, true, true])
        #expect(entries["b"] == nil)
    }
}
