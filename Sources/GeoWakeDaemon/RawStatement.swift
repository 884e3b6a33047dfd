import GRDB
import GRDBSQLite

/// A cached statement bound and stepped through SQLite's C API. The statements every fix runs (its events into the
/// outbox, the clients' sequence numbers, detector memories, the source position) spent more in GRDB's boxing of
/// arguments and rows than in SQLite itself, on each fix's way to its subscribers. Use inside a GRDB access only;
/// `run` leaves the statement reset, as GRDB expects to find it.
struct RawStatement {
    private let statement: Statement
    private let connection: SQLiteConnection?
    private var handle: SQLiteStatement { statement.sqliteStatement }

    init(_ db: Database, _ sql: String) throws {
        statement = try db.cachedStatement(sql: sql)
        connection = db.sqliteConnection
        sqlite3_reset(handle)
    }

    /// Binds parameter `index` (1-based).
    func bind(_ index: Int32, _ value: Int64) -> RawStatement {
        sqlite3_bind_int64(handle, index, value)
        return self
    }

    func bind(_ index: Int32, _ value: Int64?) -> RawStatement {
        guard let value else {
            sqlite3_bind_null(handle, index)
            return self
        }
        return bind(index, value)
    }

    func bind(_ index: Int32, _ value: Bool) -> RawStatement { bind(index, Int64(value ? 1 : 0)) }

    func bind(_ index: Int32, _ value: UInt32) -> RawStatement { bind(index, Int64(value)) }

    func bind(_ index: Int32, _ value: String) -> RawStatement {
        var text = value
        text.withUTF8 { bytes in
            // SQLite copies the bytes (transient), so the string may go when this returns.
            guard let start = bytes.baseAddress else {
                sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT)
                return
            }
            sqlite3_bind_text(handle, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), Int32(bytes.count), SQLITE_TRANSIENT)
        }
        return self
    }

    /// Binds bytes as a BLOB (copied: the array may go when this returns).
    func bind(_ index: Int32, bytes: [UInt8]) -> RawStatement {
        bytes.withUnsafeBytes { bytes in
            if let start = bytes.baseAddress {
                _ = sqlite3_bind_blob(handle, index, start, Int32(bytes.count), SQLITE_TRANSIENT)
            } else {
                _ = sqlite3_bind_zeroblob(handle, index, 0)
            }
        }
        return self
    }

    /// Binds bytes as a BLOB without a copy: the caller keeps them alive and unchanged until `run` returns (it clears
    /// the bindings). A `monitor`'s feature texts are a quarter of a megabyte, which SQLite otherwise copies first.
    func bind(_ index: Int32, borrowing bytes: UnsafeRawBufferPointer) -> RawStatement {
        if let start = bytes.baseAddress {
            _ = sqlite3_bind_blob(handle, index, start, Int32(bytes.count), nil)
        } else {
            _ = sqlite3_bind_zeroblob(handle, index, 0)
        }
        return self
    }

    /// Runs the statement to its end; `read` sees the first row's columns, when there is a row.
    @discardableResult
    func run<T>(reading read: (Columns) -> T) throws -> T? {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var first: T?
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE:
                return first
            case SQLITE_ROW:
                if first == nil { first = read(Columns(handle: handle)) }
            case let code:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: connection.map { String(cString: sqlite3_errmsg($0)) },
                                    sql: statement.sql)
            }
        }
    }

    /// Runs the statement to its end; returns the first row's first column, when there is a row.
    @discardableResult
    func run() throws -> Int64? {
        try run { $0[0] }
    }

    /// The current row's columns as integers (0-based).
    struct Columns {
        fileprivate let handle: SQLiteStatement
        subscript(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    }
}

extension Database {
    /// The cached statement for `sql`, to bind and run without GRDB's argument and row types.
    func raw(_ sql: String) throws -> RawStatement { try RawStatement(self, sql) }
}

private let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
