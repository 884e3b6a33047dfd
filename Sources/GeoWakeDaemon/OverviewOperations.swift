import Foundation
import GeoWakeCore
import GRDB

/// list, status, clients, subscriptions, disable, enable: each sees only the caller uid's clients.
extension Daemon {
    nonisolated(unsafe) static let overviewOperations: [String: Operation] = [
        "list": { daemon, request in daemon.subscriptions(of: try request.client()) },
        "subscriptions": { daemon, request in
            daemon.subscriptions(of: try daemon.existingClient(request))
        },
        "clients": { daemon, request in ["clients": try daemon.clients(of: request.connection.uid)] },
        "status": { daemon, request in
            var source: [String: Any] = ["description": daemon.source?.description ?? daemon.live?.description ?? "none", "state": daemon.sourceStateDescription]
            if let fix = daemon.lastFix {
                var last: [String: Any] = ["lat": fix.coordinate.latitude, "lon": fix.coordinate.longitude]
                if let time = fix.time { last["time"] = iso8601(time) }
                if let accuracy = fix.horizontalAccuracy { last["hAcc"] = accuracy }
                source["lastFix"] = last
            }
            return ["source": source, "clients": try daemon.clients(of: request.connection.uid)]
        },
        "disable": { daemon, request in
            let client = try daemon.existingClient(request)
            try daemon.storeWrite { db in
                try db.execute(sql: "UPDATE client SET disabled = 1 WHERE uid = ? AND clientID = ?", arguments: [client.uid, client.clientID])
            }
            if let connection = daemon.connection(for: client), connection !== request.connection { connection.closeAfterFlush = true }
            daemon.activation.disabled(client)
            return [:]
        },
        "enable": { daemon, request in
            let client = try daemon.existingClient(request)
            try daemon.storeWrite { db in
                try db.execute(sql: "UPDATE client SET disabled = 0 WHERE uid = ? AND clientID = ?", arguments: [client.uid, client.clientID])
            }
            daemon.activation.enabled(client)
            return [:]
        },
    ]

    func existingClient(_ request: Request) throws(ProtocolError) -> ClientKey {
        let key = ClientKey(uid: request.connection.uid, clientID: try request.string("client"))
        let exists = (try? store.queue.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM client WHERE uid = ? AND clientID = ?", arguments: [key.uid, key.clientID])
        }) ?? nil
        guard exists != nil else { throw ProtocolError("unknownClient", "no client \"\(key.clientID)\" for uid \(key.uid)") }
        return key
    }

    func subscriptions(of client: ClientKey) -> [String: Any] {
        var subscriptions: [[String: Any]] = services.kinds(of: client).sorted { $0.key < $1.key }.map { kind, options in
            ["kind": kind, "options": (try? JSONSerialization.jsonObject(with: Data(options.utf8))) ?? [:]]
        }
        if regions.count(of: client) > 0 { subscriptions.append(["kind": "regions", "options": regions.rules(of: client).options]) }
        let list = regions.regionIDs(of: client).compactMap { id in regions.entry(client, id).map(describe) }
        return ["subscriptions": subscriptions, "regions": list]
    }

    func clients(of uid: UInt32) throws(ProtocolError) -> [[String: Any]] {
        let rows: [Row]
        do {
            rows = try store.queue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT clientID, disabled, lastSeq,
                           (SELECT COUNT(*) FROM outbox o WHERE o.uid = c.uid AND o.clientID = c.clientID) AS pending
                    FROM client c WHERE uid = ? ORDER BY clientID
                    """, arguments: [uid])
            }
        } catch {
            throw ProtocolError("internal", "the store could not be read: \(error)")
        }
        return rows.map { row in
            let key = ClientKey(uid: uid, clientID: row["clientID"])
            var kinds = Array(services.kinds(of: key).keys)
            if regions.count(of: key) > 0 { kinds.append("regions") }
            return ["client": key.clientID, "connected": connection(for: key) != nil, "disabled": row["disabled"] as Bool,
                    "pending": row["pending"] as Int, "lastSeq": row["lastSeq"] as Int64, "regions": regions.count(of: key),
                    "subscriptions": kinds.sorted()].merging(activation.status(of: key)) { a, _ in a }
        }
    }
}
