import GeoWakeProtocol
import GRDB

/// A row of `client`: a registered client with its launch command, options and region rules as JSON text (as the
/// client gave them), and the books of its sequence numbers and the pending limit.
struct ClientRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "client"

    var uid: UInt32
    var clientID: String
    var launch: String?
    var options: String?
    var disabled = false
    var lastSeq: Int64 = 0
    /// The last acknowledged seq: `lastSeq - ackedThrough` events are pending (sequence numbers are gapless).
    var ackedThrough: Int64 = 0
    /// Events dropped at the pending limit since the last `eventsDropped` event.
    var dropped: Int64 = 0
    var regionRules: String?

    init(_ key: ClientKey, launch: String?, options: String?) {
        uid = key.uid
        clientID = key.clientID
        self.launch = launch
        self.options = options
    }

    var key: ClientKey { ClientKey(uid: uid, clientID: clientID) }
}

/// A client as `clients` and `status` show it.
struct ClientSummary: Decodable, FetchableRecord {
    var clientID: String
    var disabled: Bool
    var lastSeq: Int64
    /// Events in its outbox.
    var pending: Int
}

extension StoreTransaction {
    /// A cached statement: every registration and `monitor` reads its client, and the query interface built and
    /// prepared this SELECT anew each time.
    func client(_ key: ClientKey) throws -> ClientRecord? {
        try ClientRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM client WHERE uid = ? AND clientID = ?"),
                                  arguments: [key.uid, key.clientID])
    }

    func insert(_ client: ClientRecord) throws {
        try client.insert(db)
    }

    func clientCount(uid: UInt32) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM client WHERE uid = ?"), arguments: [uid]) ?? 0
    }

    /// A registration again: the launch command and options it gives replace the stored ones; nil keeps them.
    func updateRegistration(of key: ClientKey, launch: String?, options: String?) throws {
        if let launch {
            try db.cachedStatement(sql: "UPDATE client SET launch = ? WHERE uid = ? AND clientID = ?").execute(arguments: [launch, key.uid, key.clientID])
        }
        if let options {
            try db.cachedStatement(sql: "UPDATE client SET options = ? WHERE uid = ? AND clientID = ?").execute(arguments: [options, key.uid, key.clientID])
        }
    }

    func setDisabled(_ disabled: Bool, for key: ClientKey) throws {
        try db.execute(sql: "UPDATE client SET disabled = ? WHERE uid = ? AND clientID = ?", arguments: [disabled, key.uid, key.clientID])
    }

    /// The client's region rules as it chose them; no choice at all is stored as NULL.
    func setRegionRules(_ rules: RegionRules, for key: ClientKey) throws {
        try db.execute(sql: "UPDATE client SET regionRules = ? WHERE uid = ? AND clientID = ?",
                       arguments: [rules == RegionRules() ? nil : rules.json, key.uid, key.clientID])
    }

    /// The explicit stop: the client with its subscriptions, regions and undelivered events (its beacon regions are
    /// `deleteBeacons(of:)`).
    func deleteClient(_ key: ClientKey) throws {
        for table in ["outbox", "regionBatch", "subscription", "client"] {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE uid = ? AND clientID = ?").execute(arguments: [key.uid, key.clientID])
        }
    }

    // The pending limit's books, read and written on a fix's way out: raw cached statements.

    func lastSeq(of key: ClientKey) throws -> Int64 {
        try db.raw("SELECT lastSeq FROM client WHERE uid = ? AND clientID = ?").bind(1, key.uid).bind(2, key.clientID).run() ?? 0
    }

    /// Whether the client is disabled, its pending events and those dropped; nil for no such client.
    func pendingBooks(of key: ClientKey) throws -> (disabled: Bool, pending: Int, dropped: Int)? {
        try db.raw("SELECT disabled, lastSeq - ackedThrough, dropped FROM client WHERE uid = ? AND clientID = ?")
            .bind(1, key.uid).bind(2, key.clientID).run { (disabled: $0[0] != 0, pending: Int($0[1]), dropped: Int($0[2])) }
    }

    /// Unacknowledged events of a client, without counting the outbox.
    func pendingCount(of key: ClientKey) throws -> Int {
        Int(try db.raw("SELECT lastSeq - ackedThrough FROM client WHERE uid = ? AND clientID = ?").bind(1, key.uid).bind(2, key.clientID).run() ?? 0)
    }

    func countDroppedEvent(of key: ClientKey) throws {
        try db.raw("UPDATE client SET dropped = dropped + 1 WHERE uid = ? AND clientID = ?").bind(1, key.uid).bind(2, key.clientID).run()
    }

    /// After the `eventsDropped` event that told the client the count.
    func clearDropped(of key: ClientKey) throws {
        try db.cachedStatement(sql: "UPDATE client SET dropped = 0 WHERE uid = ? AND clientID = ?").execute(arguments: [key.uid, key.clientID])
    }
}

extension DaemonStore {
    func clientExists(_ key: ClientKey) throws -> Bool {
        try read { db in try ClientRecord.exists(db, key: ["uid": key.uid, "clientID": key.clientID]) }
    }

    /// The uid's clients by id, each with its outbox counted.
    func clientSummaries(of uid: UInt32) throws -> [ClientSummary] {
        try read { db in
            try ClientSummary.fetchAll(db, sql: """
                SELECT clientID, disabled, lastSeq,
                       (SELECT COUNT(*) FROM outbox o WHERE o.uid = c.uid AND o.clientID = c.clientID) AS pending
                FROM client c WHERE uid = ? ORDER BY clientID
                """, arguments: [uid])
        }
    }

    /// Every registered client.
    func clients() throws -> [ClientRecord] {
        try read { db in try ClientRecord.fetchAll(db) }
    }

    /// The stored launch command, nil when the client registered none.
    func launchCommand(of key: ClientKey) throws -> [String]? {
        let launch = try read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT launch FROM client WHERE uid = ? AND clientID = ?"),
                                arguments: [key.uid, key.clientID])
        }
        guard let launch, let argv = (try? JSONValue(parsing: launch))?.array else { return nil }
        let strings = argv.compactMap(\.string)
        return strings.count == argv.count ? strings : nil
    }
}

extension RegionRules {
    /// Every client's stored choice.
    static func all(_ db: Database) throws -> [ClientKey: RegionRules] {
        var all: [ClientKey: RegionRules] = [:]
        for client in try ClientRecord.filter(Column("regionRules") != nil).fetchAll(db) {
            all[client.key] = RegionRules(json: client.regionRules)
        }
        return all
    }
}
