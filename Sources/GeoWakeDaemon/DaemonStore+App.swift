import Foundation
import GRDB
import ProcessLifecycle

/// The `app` table: each client's lifecycle record (as JSON), its process and registering gid, written after every
/// change so that a daemon killed while a client is suspended finds it again (pid and start time, never a reused pid).
enum AppTable {
    struct Row: Equatable {
        var gid: UInt32
        var record: AppRecord
        var process: ProcessIdentity?
    }
}

extension StoreTransaction {
    func save(_ app: AppTable.Row, for client: ClientKey) throws {
        let record = String(decoding: try JSONEncoder().encode(app.record), as: UTF8.self)
        // A cached statement: the supervisor saves a record at every change of an app's state.
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO app (uid, clientID, gid, record, pid, startTime) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [client.uid, client.clientID, app.gid, record, app.process.map { Int64($0.pid) },
                                 app.process.map { Int64($0.startTime) }])
    }

    func deleteApp(of client: ClientKey) throws {
        try db.execute(sql: "DELETE FROM app WHERE uid = ? AND clientID = ?", arguments: [client.uid, client.clientID])
    }
}

extension DaemonStore {
    /// Every stored app; one whose record does not decode (written by another version) is left out.
    func apps() throws -> [ClientKey: AppTable.Row] {
        var apps: [ClientKey: AppTable.Row] = [:]
        for row in try read({ db in try Row.fetchAll(db, sql: "SELECT * FROM app") }) {
            let key = ClientKey(uid: UInt32(row["uid"] as Int64), clientID: row["clientID"])
            guard let record = try? JSONDecoder().decode(AppRecord.self, from: Data((row["record"] as String).utf8)) else { continue }
            let pid: Int64? = row["pid"], start: Int64? = row["startTime"]
            let process = pid.map { ProcessIdentity(pid: pid_t($0), startTime: UInt64(start ?? 0)) }
            apps[key] = AppTable.Row(gid: UInt32(row["gid"] as Int64), record: record, process: process)
        }
        return apps
    }
}
