import Foundation
import GeoWakeProtocol
import GRDB
import ProcessLifecycle

/// Each client's lifecycle record, process and registering gid in the store, so that a daemon killed while
/// a client is suspended finds it again after its restart (pid and start time, never a reused pid).
enum AppTable {
    struct Row: Equatable {
        var gid: UInt32
        var record: AppRecord
        var process: ProcessIdentity?
    }

    static func load(_ db: Database) throws -> [ClientKey: Row] {
        var rows: [ClientKey: Row] = [:]
        for row in try GRDB.Row.fetchAll(db, sql: "SELECT * FROM app") {
            let key = ClientKey(uid: UInt32(row["uid"] as Int64), clientID: row["clientID"])
            guard let record = try? JSONDecoder().decode(AppRecord.self, from: Data((row["record"] as String).utf8)) else { continue }
            let pid: Int64? = row["pid"], start: Int64? = row["startTime"]
            let process = pid.map { ProcessIdentity(pid: pid_t($0), startTime: UInt64(start ?? 0)) }
            rows[key] = Row(gid: UInt32(row["gid"] as Int64), record: record, process: process)
        }
        return rows
    }

    static func save(_ db: Database, _ key: ClientKey, _ row: Row) throws {
        let record = String(decoding: try JSONEncoder().encode(row.record), as: UTF8.self)
        // A cached statement: the supervisor saves a record at every change of an app's state.
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO app (uid, clientID, gid, record, pid, startTime) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [key.uid, key.clientID, row.gid, record, row.process.map { Int64($0.pid) },
                                 row.process.map { Int64($0.startTime) }])
    }

    static func delete(_ db: Database, _ key: ClientKey) throws {
        try db.execute(sql: "DELETE FROM app WHERE uid = ? AND clientID = ?", arguments: [key.uid, key.clientID])
    }

    /// The stored launch command, nil when the client registered none.
    static func launchCommand(_ db: Database, _ key: ClientKey) throws -> [String]? {
        guard let json = try String.fetchOne(db.cachedStatement(sql: "SELECT launch FROM client WHERE uid = ? AND clientID = ?"),
                                             arguments: [key.uid, key.clientID]) else { return nil }
        guard let argv = (try? JSONValue(parsing: json))?.array else { return nil }
        let strings = argv.compactMap(\.string)
        return strings.count == argv.count ? strings : nil
    }

    /// Every registered client with its stored options object.
    static func clients(_ db: Database) throws -> [(ClientKey, [String: JSONValue]?)] {
        try GRDB.Row.fetchAll(db, sql: "SELECT uid, clientID, options FROM client").map { row in
            let key = ClientKey(uid: UInt32(row["uid"] as Int64), clientID: row["clientID"])
            let options = (row["options"] as String?).flatMap { try? JSONValue(parsing: $0).object }
            return (key, options)
        }
    }
}
