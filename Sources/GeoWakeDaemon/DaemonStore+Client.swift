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
