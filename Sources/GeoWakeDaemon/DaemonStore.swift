import Foundation
import GeoWakeProtocol
import GRDB

/// The one SQLite file: clients, subscriptions, regions with their monitoring state, the outbox and the source
/// position. Events go in through `commit(_:)`, in the same transaction as the state change that produced them.
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
    func write<T>(synced: Bool = false, _ body: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in
            if synced || durability == .full { syncPending = true }
            try db.raw("BEGIN").run()
            do {
                let result = try body(db)
                try db.raw("COMMIT").run()
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
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
            try db.raw("BEGIN").run()
            // A row that changes: SQLite writes nothing for an update to the same value, and an empty commit syncs nothing.
            try db.raw("UPDATE syncMark SET value = value + 1").run()
            try db.raw("COMMIT").run()
        }
    }

    /// Checkpoints the WAL once it passed `WALCheckpoint.pages`; the loop calls it after a turn's deliveries.
    func checkpointIfDue() throws {
        if checkpoint.isDue { try checkpoint.run(queue) }
    }

    /// Appends an event to a client's outbox with its next sequence number; call inside a write transaction.
    @discardableResult
    static func enqueue(_ db: Database, _ key: ClientKey, event: String, now: Int64, epoch: Int64) throws -> Int64 {
        let seq = try db.raw("UPDATE client SET lastSeq = lastSeq + 1 WHERE uid = ? AND clientID = ? RETURNING lastSeq")
            .bind(1, key.uid).bind(2, key.clientID).run() ?? 0
        try insert(db, key, seq: seq, event: event, now: now, epoch: epoch)
        return seq
    }

    /// The same for an enabled client with fewer than `limit` pending events and none dropped, the usual case, in one
    /// statement fewer than reading the client first; nil, and nothing written, for any other client.
    static func enqueue(_ db: Database, _ key: ClientKey, event: String, now: Int64, epoch: Int64, pendingBelow limit: Int) throws -> Int64? {
        guard let seq = try db.raw("""
            UPDATE client SET lastSeq = lastSeq + 1
            WHERE uid = ? AND clientID = ? AND disabled = 0 AND dropped = 0 AND lastSeq - ackedThrough < ? RETURNING lastSeq
            """).bind(1, key.uid).bind(2, key.clientID).bind(3, Int64(limit)).run() else { return nil }
        try insert(db, key, seq: seq, event: event, now: now, epoch: epoch)
        return seq
    }

    private static func insert(_ db: Database, _ key: ClientKey, seq: Int64, event: String, now: Int64, epoch: Int64) throws {
        try db.raw("INSERT INTO outbox (uid, clientID, seq, event, created, epoch) VALUES (?, ?, ?, ?, ?, ?)")
            .bind(1, key.uid).bind(2, key.clientID).bind(3, seq).bind(4, event).bind(5, now).bind(6, epoch).run()
    }

    func pendingEvents(_ key: ClientKey, after seq: Int64, limit: Int) throws -> [QueuedEvent] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT seq, event, epoch FROM outbox WHERE uid = ? AND clientID = ? AND seq > ? ORDER BY seq LIMIT ?
                """), arguments: [key.uid, key.clientID, seq, limit]).map {
                QueuedEvent(client: key, seq: $0["seq"], event: $0["event"], epoch: $0["epoch"])
            }
        }
    }

    func pendingCount(_ db: Database, _ key: ClientKey) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM outbox WHERE uid = ? AND clientID = ?"),
                         arguments: [key.uid, key.clientID]) ?? 0
    }

    func sourcePosition(_ description: String) throws -> Int {
        try read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT position FROM source WHERE description = ?"), arguments: [description]) ?? -1
        }
    }

    static func setSourcePosition(_ db: Database, _ description: String, _ position: Int) throws {
        // An update in place writes the row's one page; a replace would delete and insert it, the key's index too.
        try db.raw("UPDATE source SET position = ? WHERE description = ?").bind(1, Int64(position)).bind(2, description).run()
        if db.changesCount == 0 {
            try db.raw("INSERT INTO source (description, position) VALUES (?, ?)").bind(1, description).bind(2, Int64(position)).run()
        }
    }
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
