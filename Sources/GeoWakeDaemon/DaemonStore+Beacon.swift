import GRDB

/// A row of `beaconRegion`: a client's beacon region, its feature text as given, and while it is inside its last
/// matching sighting (`lastSeen`, and `beacon` as `Daemon.beaconText` writes it).
struct BeaconRegionRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "beaconRegion"

    var uid: UInt32
    var clientID: String
    var regionID: String
    var feature: String
    /// Milliseconds since 1970, as every time in the store.
    var since: Int64?
    var lastSeen: Int64?
    var beacon: String?

    var owner: ClientKey { ClientKey(uid: uid, clientID: clientID) }
}

/// A row of `beaconRanging`: a client's ranging constraint, keyed as `BeaconSubscriptions.Constraint.key` keys it.
struct BeaconRangingRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "beaconRanging"

    var uid: UInt32
    var clientID: String
    var constraintKey: String
    var uuid: String
    var major: Int64?
    var minor: Int64?

    var client: ClientKey { ClientKey(uid: uid, clientID: clientID) }
}

extension StoreTransaction {
    func save(_ region: BeaconRegionRecord) throws {
        try region.insert(db, onConflict: .replace)
    }

    func deleteBeaconRegion(_ regionID: String, of owner: ClientKey) throws {
        try BeaconRegionRecord.deleteOne(db, key: ["uid": owner.uid, "clientID": owner.clientID, "regionID": regionID])
    }

    func save(_ ranging: BeaconRangingRecord) throws {
        try ranging.insert(db, onConflict: .replace)
    }

    func deleteRanging(_ constraintKey: String, of client: ClientKey) throws {
        try BeaconRangingRecord.deleteOne(db, key: ["uid": client.uid, "clientID": client.clientID, "constraintKey": constraintKey])
    }

    /// `unregister`'s part: the client's beacon regions and ranging constraints.
    func deleteBeacons(of owner: ClientKey) throws {
        try BeaconRegionRecord.filter(Column("uid") == owner.uid && Column("clientID") == owner.clientID).deleteAll(db)
        try BeaconRangingRecord.filter(Column("uid") == owner.uid && Column("clientID") == owner.clientID).deleteAll(db)
    }
}

extension DaemonStore {
    /// Every stored beacon region, by owner and id, and every ranging constraint.
    func beacons() throws -> (regions: [BeaconRegionRecord], ranging: [BeaconRangingRecord]) {
        try read { db in
            (try BeaconRegionRecord.order(Column("uid"), Column("clientID"), Column("regionID")).fetchAll(db),
             try BeaconRangingRecord.fetchAll(db))
        }
    }
}
