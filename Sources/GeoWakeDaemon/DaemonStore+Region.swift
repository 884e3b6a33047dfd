import Foundation
import GeoWakeCore
import Geofencing
import GRDB

/// The `region` table: each geographic region of a client, its feature text as given and its monitoring state.
extension StoreTransaction {
    /// A region a `monitor` added, undecided until a fix; its row's rowid.
    func insertRegion(_ regionID: String, feature: String, of client: ClientKey) throws -> Int64 {
        try db.raw("INSERT INTO region (uid, clientID, regionID, feature) VALUES (?, ?, ?, ?)")
            .bind(1, client.uid).bind(2, client.clientID).bind(3, regionID).bind(4, feature).run()
        return db.lastInsertedRowID
    }

    /// The states a fix (or a timer) changed, with its events: on a fix's way out, so a raw cached statement.
    func saveRegionStates(_ changes: [SharedRegions.Change]) throws {
        for change in changes {
            try db.raw("UPDATE region SET state = ?, since = ?, dwellSent = ? WHERE rowid = ?")
                .bind(1, change.entry.state.rawValue).bind(2, change.entry.since?.millisecondsSince1970).bind(3, change.entry.dwellSent)
                .bind(4, change.entry.row).run()
        }
    }

    func deleteRegion(_ regionID: String, of client: ClientKey) throws {
        try db.execute(sql: "DELETE FROM region WHERE uid = ? AND clientID = ? AND regionID = ?",
                       arguments: [client.uid, client.clientID, regionID])
    }
}

extension DaemonStore {
    /// The feature text a client's region was given with; nil for an id it does not monitor.
    func regionFeature(_ regionID: String, of client: ClientKey) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT feature FROM region WHERE uid = ? AND clientID = ? AND regionID = ?",
                                arguments: [client.uid, client.clientID, regionID])
        }
    }

    /// The clients with stored regions, in key order.
    func regionOwners() throws -> [ClientKey] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT DISTINCT uid, clientID FROM region ORDER BY uid, clientID").map { row in
                ClientKey(uid: UInt32(row[0] as Int64), clientID: row[1])
            }
        }
    }

    /// Every stored region of `owners`, owner by owner in id order, as a restart reads them: each one's feature as the
    /// row's own bytes (valid during the call: nothing is copied) with its entry.
    func forEachStoredRegion(of owners: [ClientKey], _ body: (_ feature: UnsafeRawBufferPointer, SharedRegions.Entry) throws -> Void) throws {
        try read { db in
            let statement = try db.cachedStatement(sql: """
                SELECT rowid, regionID, feature, state, since, dwellSent FROM region WHERE uid = ? AND clientID = ? ORDER BY regionID
                """)
            for owner in owners {
                let rows = try Row.fetchCursor(statement, arguments: [owner.uid, owner.clientID])
                while let row = try rows.next() {
                    let entry = SharedRegions.Entry(row: row[0], owner: owner, regionID: row[1],
                                                    state: SharedRegions.State(rawValue: row[3]) ?? .unknown,
                                                    since: (row[4] as Int64?).map { Timestamp(millisecondsSince1970: $0) }, dwellSent: row[5])
                    try row.withUnsafeData(atIndex: 2) { feature in
                        try (feature ?? Data()).withUnsafeBytes { try body($0, entry) }
                    }
                }
            }
        }
    }
}
