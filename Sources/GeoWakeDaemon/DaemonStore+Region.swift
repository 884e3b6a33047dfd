import Foundation
import GeoWakeCore
import Geofencing
import GRDB

/// The `region` table: each geographic region of a client, its feature text as given and its monitoring state.
extension StoreTransaction {
    /// A region a `monitor` added, undecided until a fix.
    func insertRegion(_ regionID: String, feature: String, of client: ClientKey) throws {
        try db.raw("INSERT INTO region (uid, clientID, regionID, feature) VALUES (?, ?, ?, ?)")
            .bind(1, client.uid).bind(2, client.clientID).bind(3, regionID).bind(4, feature).run()
    }

    /// The states a fix (or a timer) changed, with its events: on a fix's way out, so a raw cached statement.
    func saveRegionStates(_ changes: [SharedRegions.Change]) throws {
        for change in changes {
            try db.raw("UPDATE region SET state = ?, since = ?, dwellSent = ? WHERE uid = ? AND clientID = ? AND regionID = ?")
                .bind(1, change.entry.state.rawValue).bind(2, change.entry.since?.millisecondsSince1970).bind(3, change.entry.dwellSent)
                .bind(4, change.entry.owner.uid).bind(5, change.entry.owner.clientID).bind(6, change.entry.regionID).run()
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

    /// Every stored region as a restart reads it: each rule group's features as one document, in key order, with each
    /// one's entry. Rows come owner by owner: one key and one rules lookup per owner, features copied as bytes into a
    /// document sized at once (the store's size bounds their text).
    func storedRegions(groupedBy rules: (ClientKey) -> RegionMonitorConfiguration) throws -> [RegionMonitorConfiguration: StoredRegions] {
        var stored: [RegionMonitorConfiguration: StoredRegions] = [:]
        try read { db in
            let storeBytes = try Int.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size") ?? 0
            let rows = try Row.fetchCursor(db, sql: """
                SELECT uid, clientID, regionID, feature, state, since, dwellSent FROM region ORDER BY uid, clientID, regionID
                """)
            var owner = ClientKey(uid: 0, clientID: "")
            var ownerID: [UInt8] = []
            var groupRules: RegionMonitorConfiguration?
            var group = StoredRegions()
            while let row = try rows.next() {
                let uid = UInt32(row[0] as Int64)
                if try groupRules == nil || uid != owner.uid || row.withUnsafeData(atIndex: 1, { !($0 ?? Data()).withUnsafeBytes { $0.elementsEqual(ownerID) } }) {
                    owner = ClientKey(uid: uid, clientID: row[1])
                    ownerID = Array(owner.clientID.utf8)
                    let ownerRules = rules(owner)
                    if ownerRules != groupRules {
                        if let groupRules { stored[groupRules] = group }
                        group = stored.removeValue(forKey: ownerRules) ?? StoredRegions(reservingCapacity: stored.isEmpty ? storeBytes : 0)
                        groupRules = ownerRules
                    }
                }
                let entry = SharedRegions.Entry(owner: owner, regionID: row[2], state: SharedRegions.State(rawValue: row[4]) ?? .unknown,
                                                since: (row[5] as Int64?).map { Timestamp(millisecondsSince1970: $0) },
                                                dwellSent: row[6])
                try row.withUnsafeData(atIndex: 3) { feature in
                    (feature ?? Data()).withUnsafeBytes { group.append(feature: $0, entry) }
                }
            }
            if let groupRules { stored[groupRules] = group }
        }
        return stored
    }
}
