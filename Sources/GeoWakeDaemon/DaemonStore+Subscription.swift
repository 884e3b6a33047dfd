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

extension DaemonStore {
    func subscriptions() throws -> [SubscriptionRecord] {
        try read { db in try SubscriptionRecord.fetchAll(db) }
    }

    /// Every detector starts afresh (a trace replayed from its first fix would go back in time for them).
    func forgetServiceMemories() throws {
        try queue.write { db in try db.execute(sql: "UPDATE subscription SET memory = NULL") }
    }
}
