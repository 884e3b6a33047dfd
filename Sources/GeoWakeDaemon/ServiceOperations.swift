import GeoWakeProtocol
import GRDB

/// start/stop of the standard, significant-change and visit services.
extension Daemon {
    /// Starting a service again with its options unchanged keeps its state (a relaunched subscriber starts its
    /// services again); other options start it afresh.
    func startService(_ kind: ServiceKind, _ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        let configuration = try ServiceConfiguration(kind, options: request.fields)
        guard services.configuration(of: kind, for: client) != configuration else { return [:] }
        try storeWrite { db in
            try db.execute(sql: "INSERT OR REPLACE INTO subscription (uid, clientID, kind, options) VALUES (?, ?, ?, ?)",
                           arguments: [client.uid, client.clientID, kind.rawValue, configuration.json])
        }
        services.start(configuration, for: client)
        return [:]
    }

    func stopService(_ kind: ServiceKind, _ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        try storeWrite { db in
            try db.execute(sql: "DELETE FROM subscription WHERE uid = ? AND clientID = ? AND kind = ?",
                           arguments: [client.uid, client.clientID, kind.rawValue])
        }
        services.stop(kind, for: client)
        return [:]
    }
}
