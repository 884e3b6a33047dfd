import Foundation
import GeoWakeCore
import Geofencing
import GRDB
import GRDBSQLite

/// The `regionBatch` table: each `monitor`'s geographic regions with their feature texts as given
/// (`RegionBatchRecord`); `regionRemoved`: the rows of the regions removed since; `regionState`: a region's monitoring
/// state, where it has one (none is unknown).
extension StoreTransaction {
    /// The regions a `monitor` added, undecided until a fix, `features[n]` the text of `regionIDs[n]`, as one batch row;
    /// their rows, consecutive from `firstRow` when given (the decisions chose them: `DaemonCore.reserveRegionRows`),
    /// else after every stored one.
    @discardableResult
    func insertRegions(_ regionIDs: [String], features: [String], of client: ClientKey, firstRow: Int64? = nil) throws -> [Int64] {
        precondition(regionIDs.count == features.count, "a feature text for each region")
        guard !regionIDs.isEmpty else { return [] }
        let first = try firstRow ?? db.raw(DaemonStore.rowAfterLast).run() ?? 1
        var batch = RegionBatchRecord(firstRow: first, owner: client)
        batch.reserveCapacity(ids: regionIDs, features: features)
        for (regionID, feature) in zip(regionIDs, features) { batch.append(id: regionID, feature: feature) }
        try batch.insert(db)
        return (0..<Int64(regionIDs.count)).map { first + $0 }
    }

    /// The states a fix (or a timer) changed, with its events: on a fix's way out, so raw cached statements. Rows
    /// of consecutive rowids that take the same state are one run, a row's last change counting. A run's part that
    /// is a whole batch sets the batch's state (the fix after a `monitor` decides all of its regions outside at once);
    /// another part is a statement for its rows. Only the rows of stored regions get a state: a removed region's row
    /// may be reused.
    func saveRegionStates(_ changes: [SharedRegions.Change]) throws {
        for run in RegionStateRuns(changes) {
            for batch in try batches(overlapping: run.rows) {
                let rows = max(run.rows.lowerBound, batch.lowerBound)...min(run.rows.upperBound, batch.upperBound)
                if rows == batch {
                    try db.raw("UPDATE regionBatch SET state = ?, since = ?, dwellSent = ? WHERE firstRow = ?")
                        .bind(1, run.entry.state.rawValue).bind(2, run.entry.since?.millisecondsSince1970).bind(3, run.entry.dwellSent)
                        .bind(4, rows.lowerBound).run()
                    try db.raw("DELETE FROM regionState WHERE row BETWEEN ? AND ?").bind(1, rows.lowerBound).bind(2, rows.upperBound).run()
                } else {
                    try db.raw("""
                        WITH RECURSIVE run(row) AS (SELECT ?4 UNION ALL SELECT row + 1 FROM run WHERE row < ?5)
                        INSERT OR REPLACE INTO regionState (row, state, since, dwellSent) SELECT row, ?1, ?2, ?3 FROM run
                        WHERE NOT EXISTS (SELECT 1 FROM regionRemoved WHERE regionRemoved.row = run.row)
                        """)
                        .bind(1, run.entry.state.rawValue).bind(2, run.entry.since?.millisecondsSince1970).bind(3, run.entry.dwellSent)
                        .bind(4, rows.lowerBound).bind(5, rows.upperBound).run()
                }
            }
        }
    }

    /// The rows of each batch that has some of `rows`, in order.
    private func batches(overlapping rows: ClosedRange<Int64>) throws -> [ClosedRange<Int64>] {
        let statement = try db.cachedStatement(sql: """
            SELECT firstRow, count FROM regionBatch
            WHERE firstRow BETWEEN coalesce((SELECT firstRow FROM regionBatch WHERE firstRow <= ?1 ORDER BY firstRow DESC LIMIT 1), ?1) AND ?2
            ORDER BY firstRow
            """)
        return try Row.fetchAll(statement, arguments: [rows.lowerBound, rows.upperBound]).compactMap { row in
            let first: Int64 = row[0], count: Int64 = row[1]
            return first + count > rows.lowerBound ? first...(first + count - 1) : nil
        }
    }

    /// Removes the region stored in `row`, with its state; its batch goes with its last region.
    func deleteRegion(row: Int64) throws {
        guard let (first, count) = try db.raw("SELECT firstRow, count FROM regionBatch WHERE firstRow <= ? ORDER BY firstRow DESC LIMIT 1")
            .bind(1, row).run(reading: { ($0[0], $0[1]) }), row < first + count else { return }
        try db.raw("INSERT OR IGNORE INTO regionRemoved (row) VALUES (?)").bind(1, row).run()
        try db.raw("DELETE FROM regionState WHERE row = ?").bind(1, row).run()
        let removed = try db.raw("SELECT count(*) FROM regionRemoved WHERE row BETWEEN ? AND ?").bind(1, first).bind(2, first + count - 1).run() ?? 0
        if removed == count { try db.raw("DELETE FROM regionBatch WHERE firstRow = ?").bind(1, first).run() }
    }
}

extension DaemonStore {
    /// The row after every stored region's: where the rows a `monitor` adds begin.
    static let rowAfterLast = "SELECT firstRow + count FROM regionBatch ORDER BY firstRow DESC LIMIT 1"

    func regionRowAfterLast() throws -> Int64 {
        try read { db in try db.raw(Self.rowAfterLast).run() ?? 1 }
    }

    /// The feature texts the regions in `rows` were given with, by row (none for a row not stored); each batch is read
    /// once, so a subscriber monitoring its thousand regions again costs one read of its batch.
    func regionFeatures(_ rows: [Int64]) throws -> [Int64: String] {
        guard !rows.isEmpty else { return [:] }
        return try read { db in
            var texts: [Int64: String] = [:]
            let statement = try db.cachedStatement(sql: """
                SELECT firstRow, count, ids, ends, features FROM regionBatch WHERE firstRow <= ? ORDER BY firstRow DESC LIMIT 1
                """)
            let handle = statement.sqliteStatement
            var pending = rows.sorted(by: >)[...]
            while let row = pending.first {
                sqlite3_reset(handle)
                sqlite3_bind_int64(handle, 1, row)
                guard sqlite3_step(handle) == SQLITE_ROW else { break }
                let batch = StoredRegionBatchColumns(handle)
                let removed = try Set(Int64.fetchAll(db, sql: "SELECT row FROM regionRemoved WHERE row BETWEEN ? AND ?",
                                                     arguments: [batch.firstRow, batch.firstRow + Int64(batch.count) - 1]))
                while let row = pending.first, row >= batch.firstRow {
                    pending.removeFirst()
                    guard row < batch.firstRow + Int64(batch.count), !removed.contains(row) else { continue }
                    let range = batch.featureRange(Int(row - batch.firstRow))
                    texts[row] = String(decoding: UnsafeRawBufferPointer(rebasing: batch.features[range]), as: UTF8.self)
                }
            }
            sqlite3_reset(handle)
            return texts
        }
    }

    /// The clients with stored regions, in key order.
    func regionOwners() throws -> [ClientKey] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT DISTINCT uid, clientID FROM regionBatch ORDER BY uid, clientID").map { row in
                ClientKey(uid: UInt32(row[0] as Int64), clientID: row[1])
            }
        }
    }

    /// Every stored region of `owners`, owner by owner in the order they were added, as a restart reads them: each one's
    /// feature as the store's bytes with its entry, whose state is its batch's. The regions' own states are read a part
    /// after each batch, while `body` works through the batches before, and returned, to be set with
    /// `StoredRegionStates.restore(_:)`. Read first, they held the loader up a tenth of a restart. The rows are read
    /// through SQLite's C API on a second thread, a batch ahead of `body` (GRDB's rows cost more than SQLite's own
    /// work, and both were on the parsing thread).
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
                let removed = try Set(Int64.fetchAll(db, sql: "SELECT row FROM regionRemoved"))
                var statesLeft = true
                var batch = next()
                for owner in owners {
                    try batch.read(statement, owner: owner, skipping: removed, db)
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
    /// One owner's batches, as `read` takes them.
    static let query = """
        SELECT firstRow, count, ids, ends, features, state, since, dwellSent FROM regionBatch WHERE uid = ? AND clientID = ? ORDER BY firstRow
        """

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

    /// Appends the regions of one owner but those in `removed` rows, each with its batch's state (a row's own is set
    /// after: `StoredRegionStates.restore(_:)`).
    mutating func read(_ statement: Statement, owner: ClientKey, skipping removed: Set<Int64>, _ db: Database) throws {
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
                let batch = StoredRegionBatchColumns(handle)
                let state = StoredRegionStates.state(handle, 5)
                let since = sqlite3_column_type(handle, 6) == SQLITE_NULL ? nil : Timestamp(millisecondsSince1970: sqlite3_column_int64(handle, 6))
                let dwellSent = sqlite3_column_int64(handle, 7) != 0
                batch.forEachID { index, regionID in
                    let row = batch.firstRow + Int64(index)
                    guard !removed.contains(row) else { return }
                    entries.append(SharedRegions.Entry(row: row, owner: owner, regionID: regionID, state: state, since: since, dwellSent: dwellSent))
                    features.append(contentsOf: UnsafeRawBufferPointer(rebasing: batch.features[batch.featureRange(index)]))
                    ends.append(features.count)
                }
            case let code:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                    sql: statement.sql)
            }
        }
    }
}

private let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
