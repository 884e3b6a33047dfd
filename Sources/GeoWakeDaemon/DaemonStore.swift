import Foundation
import GeoWakeProtocol
import GRDB

/// The one SQLite file: clients, subscriptions, regions with their monitoring state, the outbox, app states, beacon
/// regions and the source position. Its tables are typed records with their statements, one file each
/// (`DaemonStore+Client.swift`, `+Outbox`, …); every change a request, a fix or the launcher makes goes through
/// `write`, in one transaction with the events it produced.
public final class DaemonStore {
    public let queue: DatabaseQueue
    let checkpoint = WALCheckpoint()
    /// This run's store epoch (`DaemonStore+Epoch.swift`): every event queued in this run carries it.
    private(set) var epoch: Int64 = 0
    let durability: Durability

    public enum Durability: String, Sendable {
        case normal, full
    }

    public init(path: String, durability: Durability = .normal) throws {
        self.durability = durability
        var configuration = Configuration()
        let checkpoint = checkpoint
        configuration.prepareDatabase { db in
            // Only the daemon opens its store (the CLI asks through the socket): holding the lock for good drops the
            // four lock calls of every transaction, and WAL then keeps its index in the heap, not in a -shm file.
            // A second process that opens the file gets SQLITE_BUSY ("database is locked") while the daemon runs.
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            // `full` is group commit, not SQLite's FULL: every commit waits for the turn's one `sync()`.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            checkpoint.install(on: db)
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try Self.migrator.migrate(queue)
            epoch = try Self.beginEpoch(queue)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw StartupError(.inUse, "the store \(path) is in use by another process (geowaked holds it exclusively while it runs)")
        } catch let error as DatabaseError {
            throw Self.openFailure(error, path: path)
        }
    }

    /// SQLite's "unable to open database file" names neither the file nor the reason: open it ourselves for errno.
    private static func openFailure(_ error: DatabaseError, path: String) -> StartupError {
        let message = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_CANTOPEN:
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            let code = errno
            if fd >= 0 { close(fd) }
            guard fd < 0 else { return StartupError(.cannotCreate, "--state \(path): cannot open the store: \(message)") }
            return StartupError(StartupError.kind(errno: code, creating: true),
                                "--state \(path): cannot open the store: \(String(cString: strerror(code)))")
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return StartupError(.badData, "--state \(path): not a geowake store: \(message)")
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return StartupError(.noPermission, "--state \(path): cannot write the store: \(message)")
        case .SQLITE_IOERR, .SQLITE_FULL:
            return StartupError(.ioError, "--state \(path): \(message)")
        default:
            return StartupError(.system, "--state \(path): \(message)")
        }
    }

    /// Runs `body` in one write transaction, begun and committed with cached statements, rolled back when it throws.
    /// GRDB's `write` and `inTransaction` prepare BEGIN and COMMIT anew and keep their observers' books each time: on a
    /// cold cache that was 0.2 ms of a fix's way to its subscriber. The store has no transaction observers to tell.
    ///
    /// `synced` asks for the commit to reach the disk whatever the durability, by the next `sync()`: a client's
    /// requests (register, monitor, start, …) are rare, and a power cut must not take one back after its reply said
    /// it was done. With `--durability full` every commit is such a commit. One sync covers every such commit of a
    /// loop turn (group commit): the WAL's commits survive in order, so syncing the last makes all of them durable,
    /// and nothing they produced (a reply, an event) leaves the daemon before it.
    @discardableResult
    func write<T>(synced: Bool = false, _ body: (StoreTransaction) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in
            if synced || durability == .full { syncPending = true }
            try db.raw("BEGIN").run()
            do {
                let result = try body(StoreTransaction(db: db, epoch: epoch))
                try db.raw("COMMIT").run()
                return result
            } catch {
                _ = try? db.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// Runs `body` in one write transaction committed with a full sync at once, for a write the daemon must not act
    /// past before it is durable (a process it is about to stop). The WAL is synced up to this commit, so every
    /// earlier commit is durable too and the turn's `sync()` has nothing left to do. The sync mark changes with it:
    /// SQLite writes nothing for an update to the same value, and an empty commit syncs nothing.
    @discardableResult
    func writeDurably<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in
            try db.raw("PRAGMA synchronous = FULL").run()
            defer { _ = try? db.raw("PRAGMA synchronous = NORMAL").run() }
            try db.raw("BEGIN").run()
            do {
                let result = try body(StoreTransaction(db: db, epoch: epoch))
                try db.raw("UPDATE syncMark SET value = value + 1").run()
                try db.raw("COMMIT").run()
                syncPending = false
                return result
            } catch {
                _ = try? db.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// Runs `body` outside any transaction, for reads. Not GRDB's `read`: its read-only guard sets and clears `PRAGMA
    /// query_only`, and every such flag pragma expires all prepared statements, so each read made the next fix
    /// prepare its cached statements anew.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.inDatabase(body)
    }

    /// Whether a commit waits for `sync()` (its replies and events are held until then).
    private(set) var syncPending = false

    /// Makes every commit so far durable: one small commit with a full sync, which syncs the WAL up to it.
    func sync() throws {
        guard syncPending else { return }
        syncPending = false
        try writeDurably { _ in }
    }

    /// Checkpoints the WAL once it passed `WALCheckpoint.pages`; the loop calls it after a turn's deliveries.
    func checkpointIfDue() throws {
        if checkpoint.isDue { try checkpoint.run(queue) }
    }
}

/// One write transaction of the store (`DaemonStore.write`): its statements are the typed methods in the table
/// files, and all of them commit together or none does.
struct StoreTransaction {
    let db: Database
    /// This run's store epoch, carried by every event queued in it.
    let epoch: Int64

    /// Runs `body` in a savepoint, kept when it returns true and rolled back when it returns false, so that one of
    /// several requests in the transaction fails alone.
    func inSavepoint(_ body: () throws -> Bool) throws {
        try db.inSavepoint { try body() ? .commit : .rollback }
    }

    /// A cached statement to bind and run.
    func raw(_ sql: String) throws -> RawStatement { try db.raw(sql) }
}

/// Every client is keyed by the peer's uid and its own id.
public struct ClientKey: Hashable, Sendable, Comparable {
    public var uid: UInt32
    public var clientID: String

    public init(uid: UInt32, clientID: String) {
        self.uid = uid
        self.clientID = clientID
    }

    public static func < (a: ClientKey, b: ClientKey) -> Bool {
        (a.uid, a.clientID) < (b.uid, b.clientID)
    }
}
