import Foundation
import GeoWakeCore
import GeoWakeProtocol

/// The pending-events limit. A client's pending count is `lastSeq - ackedThrough` (sequence numbers are gapless), so
/// admitting an event costs one row read, not a count of the outbox. Events past the limit are counted in `dropped`;
/// once there is room, an `eventsDropped` status event with that count is queued before the next event.
extension DaemonCore {
    /// Writes events of enabled clients to their outboxes within the pending limit; call inside a write transaction.
    /// Returns what was queued, with sequence numbers, for `notify` to send once the transaction committed.
    @discardableResult
    func enqueue(_ transaction: StoreTransaction, _ events: [ClientEvent], now: Timestamp) throws -> [QueuedEvent] {
        var queued: [QueuedEvent] = []
        for event in events {
            let client = event.client
            if let seq = try transaction.appendEvent(event.line, for: client, at: now.millisecondsSince1970, pendingBelow: limits.maximumPendingEvents) {
                queued.append(QueuedEvent(client: client, seq: seq, event: event.line, epoch: transaction.epoch))
                continue
            }
            guard let books = try transaction.pendingBooks(of: client), !books.disabled else { continue }
            let dropped = books.dropped
            let room = limits.maximumPendingEvents - books.pending
            guard room >= (dropped > 0 ? 2 : 1) else {
                try transaction.countDroppedEvent(of: client)
                continue
            }
            if dropped > 0 { queued.append(try reportDropped(transaction, client, dropped, now: now)) }
            let seq = try transaction.appendEvent(event.line, for: client, at: now.millisecondsSince1970)
            queued.append(QueuedEvent(client: client, seq: seq, event: event.line, epoch: transaction.epoch))
        }
        return queued
    }

    /// After an ack: records it and, when events were dropped and there is room now, says so at once.
    func acknowledge(_ transaction: StoreTransaction, _ client: ClientKey, through seq: Int64, at now: Timestamp) throws {
        try transaction.acknowledge(client, through: seq)
        guard let books = try transaction.pendingBooks(of: client) else { return }
        if books.dropped > 0 && books.pending < limits.maximumPendingEvents {
            _ = try reportDropped(transaction, client, books.dropped, now: now)
            if let connection = connection(of: client) { emit(.readOutbox(connection, fromStart: false)) }
        }
    }

    private func reportDropped(_ transaction: StoreTransaction, _ client: ClientKey, _ dropped: Int, now: Timestamp) throws -> QueuedEvent {
        let line = EventLines.status("eventsDropped", "\(dropped) events were dropped at the pending limit of \(limits.maximumPendingEvents)",
                                     at: now, dropped: dropped)
        let seq = try transaction.appendEvent(line, for: client, at: now.millisecondsSince1970)
        try transaction.clearDropped(of: client)
        return QueuedEvent(client: client, seq: seq, event: line, epoch: transaction.epoch)
    }
}
