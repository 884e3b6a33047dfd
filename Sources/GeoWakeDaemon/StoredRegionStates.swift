import GeoWakeCore
import GRDB
import GRDBSQLite

/// The `regionState` table as a restart reads it: every stored state, in rowid order, each region's found where its
/// rowid says or else by binary search. A LEFT JOIN of the region rows with their states searched regionState's B-tree once per region
/// (in sqlite3 from Python, half again the time of reading the region rows alone); this is one scan of small rows.
struct StoredRegionStates {
    struct Stored {
        var state: SharedRegions.State
        var since: Timestamp?
        var dwellSent: Bool
    }

    private var rows: [Int64] = []
    private var states: [Stored] = []

    init() {}

    static let query = "SELECT row, state, since, dwellSent FROM regionState ORDER BY row"

    /// Reads on from `statement` (`query`'s) at most `count` rows; false once it has read the last. A restart reads
    /// them a part after each batch of region rows, where its reading thread would otherwise wait for the parser.
    mutating func read(_ statement: Statement, atMost count: Int, _ db: Database) throws -> Bool {
        let handle = statement.sqliteStatement
        for _ in 0..<count {
            switch sqlite3_step(handle) {
            case SQLITE_DONE:
                return false
            case SQLITE_ROW:
                let since = sqlite3_column_type(handle, 2) == SQLITE_NULL ? nil : Timestamp(millisecondsSince1970: sqlite3_column_int64(handle, 2))
                rows.append(sqlite3_column_int64(handle, 0))
                states.append(Stored(state: Self.state(handle, 1), since: since, dwellSent: sqlite3_column_int64(handle, 3) != 0))
            case let code:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                    sql: statement.sql)
            }
        }
        return true
    }

    /// Gives each entry its stored state, if it has one.
    func restore(_ entries: inout [SharedRegions.Entry]) {
        for index in entries.indices {
            guard let stored = state(ofRow: entries[index].row) else { continue }
            (entries[index].state, entries[index].since, entries[index].dwellSent) = (stored.state, stored.since, stored.dwellSent)
        }
    }

    /// The stored state of the region in `row`; nil when it has none (unknown).
    func state(ofRow row: Int64) -> Stored? {
        // Rows are rowids, mostly consecutive: where none is missing before it, a row is where its rowid says.
        if let first = rows.first, row >= first, row - first < Int64(rows.count), rows[Int(row - first)] == row { return states[Int(row - first)] }
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] < row { low = middle + 1 } else { high = middle }
        }
        return low < rows.count && rows[low] == row ? states[low] : nil
    }

    /// A state column's value; unknown for NULL or a value it does not know.
    static func state(_ handle: SQLiteStatement, _ column: Int32) -> SharedRegions.State {
        guard let text = sqlite3_column_text(handle, column) else { return .unknown }
        let raw = String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
        return SharedRegions.State(rawValue: raw) ?? .unknown
    }
}
