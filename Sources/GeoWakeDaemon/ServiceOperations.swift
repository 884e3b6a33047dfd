import Foundation
import GRDB

/// start/stop of the standard, significant-change and visit services.
extension Daemon {
    nonisolated(unsafe) static let serviceOperations: [String: Operation] = {
        var operations: [String: Operation] = [:]
        for (name, kind) in [("Standard", ServiceKind.standard), ("Significant", .significant), ("Visits", .visits)] {
            operations["start" + name] = { daemon, request in
                let client = try request.client()
                let configuration = try ServiceConfiguration(kind, options: request.fields)
                guard daemon.services.configuration(of: kind, for: client) != configuration else { return [:] }
                try daemon.storeWrite { db in
                    try db.execute(sql: "INSERT OR REPLACE INTO subscription (uid, clientID, kind, options) VALUES (?, ?, ?, ?)",
                                   arguments: [client.uid, client.clientID, kind.rawValue, configuration.json])
                }
                daemon.services.start(configuration, for: client)
                return [:]
            }
            operations["stop" + name] = { daemon, request in
                let client = try request.client()
                try daemon.storeWrite { db in
                    try db.execute(sql: "DELETE FROM subscription WHERE uid = ? AND clientID = ? AND kind = ?",
                                   arguments: [client.uid, client.clientID, kind.rawValue])
                }
                daemon.services.stop(kind, for: client)
                return [:]
            }
        }
        return operations
    }()
}
