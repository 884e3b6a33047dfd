import Foundation
import GeoWakeCore
import Geofencing
import GRDB
import GRDBSQLite

/// The `region` table: each geographic region of a client and its feature text as given; `regionState`: its
/// monitoring state, where it has one (none is unknown).
extension StoreTransaction {
    /// The regions a `monitor` added, undecided until a fix, `features[n]` the text of `regionIDs[n]`; their rows'
    /// rowids, consecutive from `firstRow` when given (the decisions chose them: `DaemonCore.reserveRegionRows`), else
    /// SQLite's. One statement for all, bound again for each row: looked up by its text for each, the cached
    /// statement cost a hash of that text a row.
    @discardableResult
    func insertRegions(_ regionIDs: [String], features: [String], of client: ClientKey, firstRow: Int64? = nil) throws -> [Int64] {
        precondition(regionIDs.count == features.count, "a feature text for each region")
        let insert = try db.raw("INSERT INTO region (rowid, uid, clientID, regionID, feature) VALUES (?, ?, ?, ?, ?)")
        var rows: [Int64] = []
        rows.reserveCapacity(regionIDs.count)
        for (n, (regionID, feature)) in zip(regionIDs, features).enumerated() {
            try insert.bind(1, firstRow.map { $0 + Int64(n) }).bind(2, client.uid).bind(3, client.clientID).bind(4, regionID).bind(5, feature).run()
            rows.append(db.lastInsertedRowID)
        }
        return rows
    }

    /// The states a fix (or a timer) changed, with its events: on a fix's way out, so raw cached statements. Rows
    /// of consecutive rowids that take the same state are one statement: the fix after a `monitor` decides all of
    /// its regions outside at once, a row each took a tenth of registering them. A row changed twice keeps its last.
    /// Only rows still in `region` get a state, as an UPDATE of it would: a removed region's rowid may be reused.
    func saveRegionStates(_ changes: [SharedRegions.Change]) throws {
        for run in RegionStateRuns(changes) {
            try db.raw("""
                INSERT OR REPLACE INTO regionState (row, state, since, dwellSent)
                SELECT rowid, ?, ?, ? FROM region WHERE rowid BETWEEN ? AND ?
                """)
                .bind(1, run.entry.state.rawValue).bind(2, run.entry.since?.millisecondsSince1970).bind(3, run.entry.dwellSent)
                .bind(4, run.rows.lowerBound).bind(5, run.rows.upperBound).run()
        }
    }

    func deleteRegion(_ regionID: String, of client: ClientKey) throws {
        try db.execute(sql: "DELETE FROM region WHERE uid = ? AND clientID = ? AND regionID = ?",
                       arguments: [client.uid, client.clientID, regionID])
    }
}

extension DaemonStore {
    /// The rowid after every region row's: where the rows a `monitor` adds begin.
    func regionRowAfterLast() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) + 1 FROM region") ?? 1 }
    }

    /// The feature text a client's region was given with; nil for an id it does not monitor.
    func regionFeature(_ regionID: String, of client: ClientKey) throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT feature FROM region WHERE uid = ? AND clientID = ? AND regionID = ?",
                                arguments: [client.uid, client.clientID, regionID])
        }
    }

    /// The clients with stored regions, in key order: one seek in the key's index per client, where `DISTINCT` read
    /// all of it (a million entries: a twentieth of a restart, before anything else could start). A BLOB sorts after
    /// every TEXT, so `(uid, clientID, x'')` is past all of a client's region ids.
    func regionOwners() throws -> [ClientKey] {
        try read { db in
            var owners: [ClientKey] = []
            let next = try db.cachedStatement(sql: """
                SELECT uid, clientID FROM region WHERE (uid, clientID, regionID) > (?, ?, x'') ORDER BY uid, clientID, regionID LIMIT 1
                """)
            var after = (uid: Int64(-1), clientID: "")
            while let row = try Row.fetchOne(next, arguments: [after.uid, after.clientID]) {
                after = (row[0], row[1])
                owners.append(ClientKey(uid: UInt32(after.uid), clientID: after.clientID))
            }
            return owners
        }
    }

    /// Every stored region of `owners`, owner by owner in id order, as a restart reads them: each one's feature as the
    /// row's bytes with its entry, whose state is unknown: the states are read a part after each batch, while `body`
    /// works through the batches before, and returned, to be set with `StoredRegionStates.restore(_:)`. Read first,
    /// they held the loader up a tenth of a restart. The rows are read through SQLite's C API on a second
    /// thread, a batch ahead of `body` (GRDB's rows cost more than SQLite's own work, and both were on the parsing
    /// thread).
    func forEachStoredRegion(of owners: [ClientKey], _ body: (_ feature: UnsafeRawBufferPointer, SharedRegions.Entry) throws -> Void) throws -> StoredRegionStates {
        // Written by the reading thread before it ends, read here after `take` has seen the end.
        nonisolated(unsafe) var states = StoredRegionStates()
        let batches = ReadAhead<StoredRegionBatch> { [self] put, spare in
            func next() -> StoredRegionBatch {
                guard var batch = spare() else { return StoredRegionBatch() }
                batch.removeAll()
                return batch
            }
            try read { db in
                let statement = try db.cachedStatement(sql: StoredRegionBatch.query)
                let stateRows = try db.makeStatement(sql: StoredRegionStates.query)
                var statesLeft = true
                var batch = next()
                for owner in owners {
                    try batch.read(statement, owner: owner, db)
                    if batch.entries.count >= StoredRegionBatch.size {
                        guard put(batch) else { return }
                        batch = next()
                        // As many states as regions, about: both end together.
                        if statesLeft { statesLeft = try states.read(stateRows, atMost: StoredRegionBatch.size, db) }
                    }
                }
                guard put(batch) else { return }
                while statesLeft { statesLeft = try states.read(stateRows, atMost: .max, db) }
            }
        }
        do {
            while let batch = try batches.take() {
                try batch.features.withUnsafeBytes { features in
                    var start = 0
                    for (entry, end) in zip(batch.entries, batch.ends) {
                        try body(UnsafeRawBufferPointer(rebasing: features[start..<end]), entry)
                        start = end
                    }
                }
                batches.recycle(batch)
            }
        } catch {
            batches.cancel()
            throw error
        }
        return states
    }
}

/// Stored regions read ahead for a restart: their features' bytes one after another, and their entries.
struct StoredRegionBatch {
    static let size = 4096
    /// One owner's rows, as `read` takes them.
    static let query = "SELECT rowid, regionID, feature FROM region WHERE uid = ? AND clientID = ? ORDER BY regionID"

    var features: [UInt8] = []
    var ends: [Int] = []
    var entries: [SharedRegions.Entry] = []

    init() {
        features.reserveCapacity(Self.size * 256)
        ends.reserveCapacity(Self.size)
        entries.reserveCapacity(Self.size)
    }

    /// Empties the batch, keeping its capacity, to read into it again.
    mutating func removeAll() {
        features.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Appends the rows of one owner, each with its state unknown.
    mutating func read(_ statement: Statement, owner: ClientKey, _ db: Database) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_bind_int64(handle, 1, Int64(owner.uid))
        _ = owner.clientID.utf8CString.withUnsafeBufferPointer { id in
            sqlite3_bind_text(handle, 2, id.baseAddress, Int32(id.count - 1), SQLITE_TRANSIENT)
        }
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE:
                return
            case SQLITE_ROW:
                entries.append(SharedRegions.Entry(row: sqlite3_column_int64(handle, 0), owner: owner, regionID: Self.text(handle, 1),
                                                   state: .unknown, since: nil))
                if let feature = sqlite3_column_blob(handle, 2) {
                    features.append(contentsOf: UnsafeRawBufferPointer(start: feature, count: Int(sqlite3_column_bytes(handle, 2))))
                }
                ends.append(features.count)
            case let code:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                    sql: statement.sql)
            }
        }
    }

    private static func text(_ handle: SQLiteStatement, _ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }
}

private let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
