import Foundation
import GeoWakeCore
import JSONLines
import GRDB

/// Sources → services → outbox: one fix's events, its region states and the source position in one transaction.
extension Daemon {
    /// The source runs only while some enabled client has a subscription or a region.
    func updateDemand() {
        guard source != nil else { return }
        let needed = !services.isEmpty || !regions.entries.isEmpty
        if needed && sourceState == "idle" {
            source!.start(now: Self.clock())
            sourceState = "running"
        } else if !needed && sourceState == "running" {
            source!.pause()
            sourceState = "idle"
        }
    }

    func processNextFix() {
        guard var source else { return }
        let fix = source.next()
        let now = fix.time ?? Timestamp(secondsSince1970: Date().timeIntervalSince1970)
        var events: [(ClientKey, LaunchReason?, String)] = []
        let changes = regions.update(with: fix)
        for change in changes {
            guard let kind = change.event else { continue }
            var writer = JSONLineWriter(reservingCapacity: 256)
            writer.regionEventLine(RegionEvent(kind: kind, regionID: change.entry.regionID, fix: fix))
            events.append((change.entry.owner, .region, ClientServices.object(&writer)))
        }
        events += services.update(with: fix, at: now)
        let ended = source.ended
        if ended {
            for client in Set(events.map(\.0)).union(subscribedClients()).sorted() {
                events.append((client, nil, Self.statusEvent("ended", "the trace was replayed to its end", at: now)))
            }
        }
        do {
            try store.queue.inTransaction { db in
                for change in changes {
                    try db.execute(sql: "UPDATE region SET state = ?, since = ? WHERE uid = ? AND clientID = ? AND regionID = ?",
                                   arguments: [change.entry.state.rawValue, change.entry.since?.millisecondsSince1970,
                                               change.entry.owner.uid, change.entry.owner.clientID, change.entry.regionID])
                }
                try enqueue(db, events, now: now)
                try DaemonStore.setSourcePosition(db, source.description, source.position)
                return .commit
            }
        } catch {
            logger.error("cannot store a fix's events", metadata: ["error": "\(error)"])
        }
        lastFix = fix
        if ended { sourceState = "ended" }
        self.source = source
        notify(events)
    }

    func subscribedClients() -> Set<ClientKey> {
        Set(services.byClient.keys).union(regions.entries.values.map(\.owner))
    }

    /// Writes events of enabled clients to their outboxes; call inside a write transaction.
    func enqueue(_ db: Database, _ events: [(ClientKey, LaunchReason?, String)], now: Timestamp) throws {
        for (client, _, event) in events {
            let disabled = try Bool.fetchOne(db, sql: "SELECT disabled FROM client WHERE uid = ? AND clientID = ?",
                                             arguments: [client.uid, client.clientID]) ?? true
            guard !disabled else { continue }
            try DaemonStore.enqueue(db, client, event: event, now: now.millisecondsSince1970)
        }
    }

    /// After the commit: wake connected clients, and tell the launcher about every client that got events
    /// (a connected one may be suspended, or on a budget the event extends).
    func notify(_ events: [(ClientKey, LaunchReason?, String)]) {
        var reasons: [ClientKey: LaunchReason?] = [:]
        for (client, reason, _) in events where reasons[client] ?? nil == nil { reasons[client] = reason }
        for (client, reason) in reasons.sorted(by: { $0.key < $1.key }) {
            connection(for: client)?.outboxMayHaveMore = true
            activation.eventQueued(for: client, reason: reason)
        }
    }

    static func statusEvent(_ state: String, _ message: String, at time: Timestamp) -> String {
        var writer = JSONLineWriter(reservingCapacity: 128)
        writer.beginObject()
        writer.field("event", "status")
        writer.field("time", time)
        writer.field("state", state)
        writer.field("message", message)
        writer.endLine()
        return ClientServices.object(&writer)
    }
}
