import GRDB

/// How far a trace (or a beacon trace) was processed, by its description: a restart resumes after it.
extension StoreTransaction {
    func setSourcePosition(_ position: Int, of description: String) throws {
        // An update in place writes the row's one page; a replace would delete and insert it, the key's index too.
        try db.raw("UPDATE source SET position = ? WHERE description = ?").bind(1, Int64(position)).bind(2, description).run()
        if db.changesCount == 0 {
            try db.raw("INSERT INTO source (description, position) VALUES (?, ?)").bind(1, description).bind(2, Int64(position)).run()
        }
    }
}

extension DaemonStore {
    /// The stored position, -1 for a source never processed.
    func sourcePosition(_ description: String) throws -> Int {
        try read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT position FROM source WHERE description = ?"), arguments: [description]) ?? -1
        }
    }
}
