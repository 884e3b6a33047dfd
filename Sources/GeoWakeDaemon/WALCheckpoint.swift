import GRDB
import GRDBSQLite

/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 pages and syncs the database
/// file there: milliseconds on one fix's way to its subscribers. The store replaces it with this hook, which only
/// notes the WAL's size at each commit, and the loop checkpoints (PASSIVE, as the automatic one) after the turn's
/// events are sent. The durability is the same: under `synchronous=NORMAL` the WAL is synced at checkpoints.
/// Unchecked: the hook runs inside the store's synchronous writes, which the loop thread waits for.
final class WALCheckpoint: @unchecked Sendable {
    static let pages: Int32 = 1000
    fileprivate(set) var walPages: Int32 = 0

    /// Installs the hook on a connection; call from `prepareDatabase`.
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, { context, _, _, pages in
            Unmanaged<WALCheckpoint>.fromOpaque(context!).takeUnretainedValue().walPages = pages
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    var isDue: Bool { walPages >= Self.pages }

    func run(_ queue: DatabaseQueue) throws {
        walPages = 0
        _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }
}
