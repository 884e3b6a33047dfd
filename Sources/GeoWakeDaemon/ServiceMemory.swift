import Foundation
import GRDB
import LocationServices

/// One client's detector memory, stored in its subscription row in the same transaction as the events that
/// changed it. Standard and significant-change memories change only when they deliver; a visit detector's changes
/// with every fix during a stay.
struct ServiceMemory {
    static let migration = "v2-serve-service-memory"

    let client: ClientKey
    let kind: String
    let json: String

    init(client: ClientKey, kind: String, _ memory: some Encodable) {
        self.client = client
        self.kind = kind
        json = (try? JSONEncoder().encode(memory)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func registerMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(migration) { db in
            try db.execute(sql: "ALTER TABLE subscription ADD COLUMN memory TEXT")
        }
    }

    func store(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE subscription SET memory = ? WHERE uid = ? AND clientID = ? AND kind = ?").execute(
                       arguments: [json, client.uid, client.clientID, kind])
    }
}
