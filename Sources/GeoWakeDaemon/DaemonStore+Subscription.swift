import GeoWakeProtocol
import GRDB

/// A row of `subscription`: a started standard, significant-change or visit service, its options as the client gave
/// them, and its detector's memory (`ServiceMemory`), so a restart continues where the detector was.
struct SubscriptionRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "subscription"

    var uid: UInt32
    var clientID: String
    /// A `ServiceKind`.
    var kind: String
    var options: String
    var memory: String?

    init(_ client: ClientKey, kind: ServiceKind, options: String) {
        uid = client.uid
        clientID = client.clientID
        self.kind = kind.rawValue
        self.options = options
    }

    var client: ClientKey { ClientKey(uid: uid, clientID: clientID) }
}

extension StoreTransaction {
    /// Starts a subscription afresh: a stored one of its kind is replaced, memory and all.
    func save(_ subscription: SubscriptionRecord) throws {
        try subscription.insert(db, onConflict: .replace)
    }

    func deleteSubscription(_ kind: ServiceKind, of client: ClientKey) throws {
        try SubscriptionRecord.deleteOne(db, key: ["uid": client.uid, "clientID": client.clientID, "kind": kind.rawValue])
    }

    /// A detector's memory with the events that changed it: on a fix's way out, so a raw cached statement.
    func save(_ memory: ServiceMemory) throws {
        try db.raw("UPDATE subscription SET memory = ? WHERE uid = ? AND clientID = ? AND kind = ?")
            .bind(1, memory.json).bind(2, memory.client.uid).bind(3, memory.client.clientID).bind(4, memory.kind).run()
    }
}

extension DaemonStore {
    func subscriptions() throws -> [SubscriptionRecord] {
        try read { db in try SubscriptionRecord.fetchAll(db) }
    }

    /// Every detector starts afresh (a trace replayed from its first fix would go back in time for them).
    func forgetServiceMemories() throws {
        try queue.write { db in try db.execute(sql: "UPDATE subscription SET memory = NULL") }
    }
}
