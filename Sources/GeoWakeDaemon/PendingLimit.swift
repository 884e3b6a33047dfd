import Foundation
import GeoWakeCore
import GRDB
import GeoWakeProtocol

/// The pending-events limit. A client's pending count is `lastSeq - ackedThrough` (sequence numbers are gapless), so
/// admitting an event costs one row read, not a count of the outbox. Events past the limit are counted in `dropped`;
/// once there is room, an `eventsDropped` status event with that count is queued before the next event.
extension Daemon {
    /// Writes events of enabled clients to their outboxes within the pending limit; call inside a write transaction.
    /// Returns what was queued, with sequence numbers, for `notify` to send once the transaction committed.
    @discardableResult
    func enqueue(_ db: Database, _ events: [(ClientKey, LaunchReason?, String)], now: Timestamp) throws -> [QueuedEvent] {
        var queued: [QueuedEvent] = []
        for (client, _, event) in events {
            if let seq = try DaemonStore.enqueue(db, client, event: event, now: now.millisecondsSince1970, epoch: store.epoch,
                                                 pendingBelow: limits.maximumPendingEvents) {
                queued.append(QueuedEvent(client: client, seq: seq, event: event, epoch: store.epoch))
                continue
            }
            guard let row = try db.raw("SELECT disabled, lastSeq - ackedThrough, dropped FROM client WHERE uid = ? AND clientID = ?")
                .bind(1, client.uid).bind(2, client.clientID).run(reading: { (disabled: $0[0] != 0, pending: Int($0[1]), dropped: Int($0[2])) }),
                  !row.disabled else { continue }
            let dropped = row.dropped
            let room = limits.maximumPendingEvents - row.pending
            guard room >= (dropped > 0 ? 2 : 1) else {
                try db.raw("UPDATE client SET dropped = dropped + 1 WHERE uid = ? AND clientID = ?").bind(1, client.uid).bind(2, client.clientID).run()
                continue
            }
            if dropped > 0 { queued.append(try reportDropped(db, client, dropped, now: now)) }
            let seq = try DaemonStore.enqueue(db, client, event: event, now: now.millisecondsSince1970, epoch: store.epoch)
            queued.append(QueuedEvent(client: client, seq: seq, event: event, epoch: store.epoch))
        }
        return queued
    }

    /// After an ack: records it and, when events were dropped and there is room now, says so at once.
    func acknowledge(_ db: Database, _ client: ClientKey, through seq: Int64) throws {
        try db.raw("DELETE FROM outbox WHERE uid = ? AND clientID = ? AND seq <= ?").bind(1, client.uid).bind(2, client.clientID).bind(3, seq).run()
        try db.raw("UPDATE client SET ackedThrough = MAX(ackedThrough, ?) WHERE uid = ? AND clientID = ?")
            .bind(1, seq).bind(2, client.uid).bind(3, client.clientID).run()
        guard let (pending, dropped) = try db.raw("SELECT lastSeq - ackedThrough, dropped FROM client WHERE uid = ? AND clientID = ?")
            .bind(1, client.uid).bind(2, client.clientID).run(reading: { (Int($0[0]), Int($0[1])) }) else { return }
        if dropped > 0 && pending < limits.maximumPendingEvents {
            _ = try reportDropped(db, client, dropped, now: clock.wall())
            if let connection = connection(for: client) { connection.outboxMayHaveMore = true }
        }
    }

    /// Unacknowledged events of a client, without counting the outbox.
    func pending(_ db: Database, _ client: ClientKey) throws -> Int {
        Int(try db.raw("SELECT lastSeq - ackedThrough FROM client WHERE uid = ? AND clientID = ?").bind(1, client.uid).bind(2, client.clientID).run() ?? 0)
    }

    private func reportDropped(_ db: Database, _ client: ClientKey, _ dropped: Int, now: Timestamp) throws -> QueuedEvent {
        var line = Self.statusEvent("eventsDropped", "\(dropped) events were dropped at the pending limit of \(limits.maximumPendingEvents)", at: now)
        line.removeLast()
        line += ",\"dropped\":\(dropped)}"
        let seq = try DaemonStore.enqueue(db, client, event: line, now: now.millisecondsSince1970, epoch: store.epoch)
        try db.cachedStatement(sql: "UPDATE client SET dropped = 0 WHERE uid = ? AND clientID = ?").execute(arguments: [client.uid, client.clientID])
        return QueuedEvent(client: client, seq: seq, event: line, epoch: store.epoch)
    }
}

/// An event as committed to a client's outbox.
struct QueuedEvent {
    var client: ClientKey
    var seq: Int64
    var event: String
    /// The store epoch of the run that queued it: with `seq`, what names the event to a client.
    var epoch: Int64
}
