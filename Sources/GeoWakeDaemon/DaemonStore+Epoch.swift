import GRDB

/// The store's epoch: a number that grows by one each time the daemon opens the store, committed with a full sync
/// before anything else happens. A power cut under `--durability normal` can lose the last commits, and with them
/// sequence numbers already delivered; the next run then issues those numbers again, but to events of a greater
/// epoch, so a client that orders events by (epoch, seq) never takes a new event for one it has seen.
extension DaemonStore {
    /// Takes the next epoch, synced to disk whatever the store's durability, and returns it.
    static func beginEpoch(_ queue: DatabaseQueue) throws -> Int64 {
        try queue.writeWithoutTransaction { db in
            let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 1
            try db.execute(sql: "PRAGMA synchronous = FULL")
            defer { try? db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
            try db.execute(sql: "BEGIN; UPDATE storeEpoch SET value = value + 1; COMMIT")
            return try Int64.fetchOne(db, sql: "SELECT value FROM storeEpoch") ?? 0
        }
    }
}
