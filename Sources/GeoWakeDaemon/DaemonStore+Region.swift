import GRDB

/// The `region` table: each geographic region of a client, its feature text as given and its monitoring state. (A
/// `monitor`'s insert and the restart's read are with `monitorRegions` and `Daemon.restore`.)
extension StoreTransaction {
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
