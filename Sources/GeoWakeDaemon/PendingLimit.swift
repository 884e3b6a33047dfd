import Foundation
import GeoWakeCore
import GeoWakeProtocol

/// The pending-events limit. A client's pending count is `lastSeq - ackedThrough` (sequence numbers are gapless), so
/// admitting an event costs one row read, not a count of the outbox. Events past the limit are counted in `dropped`;
/// once there is room, an `eventsDropped` status event with that count is queued before the next event.
extension StoreTransaction {
    /// Writes events of enabled clients to their outboxes within the pending limit. Returns what was queued, with
    /// sequence numbers, for the decisions to send once the transaction committed.
    func enqueue(_ events: [ClientEvent], maximumPending limit: Int, at now: Timestamp) throws -> [QueuedEvent] {
        var queued: [QueuedEvent] = []
        for event in events {
            let client = event.client
            if let seq = try appendEvent(event.line, for: client, at: now.millisecondsSince1970, pendingBelow: limit) {
                queued.append(QueuedEvent(client: client, seq: seq, event: event.line, epoch: epoch))
                continue
            }
            guard let books = try pendingBooks(of: client), !books.disabled else { continue }
            let dropped = books.dropped
            let room = limit - books.pending
            guard room >= (dropped > 0 ? 2 : 1) else {
                try countDroppedEvent(of: client)
                continue
            }
            if dropped > 0 { queued.append(try reportDropped(client, dropped, maximumPending: limit, at: now)) }
            let seq = try appendEvent(event.line, for: client, at: now.millisecondsSince1970)
            queued.append(QueuedEvent(client: client, seq: seq, event: event.line, epoch: epoch))
        }
        return queued
    }

    /// Records an ack and, when events were dropped and there is room now, queues the `eventsDropped` event at once;
    /// whether it did.
    func acknowledge(_ client: ClientKey, through seq: Int64, maximumPending limit: Int, at now: Timestamp) throws -> Bool {
        try acknowledge(client, through: seq)
        guard let books = try pendingBooks(of: client), books.dropped > 0 && books.pending < limit else { return false }
        _ = try reportDropped(client, books.dropped, maximumPending: limit, at: now)
        return true
    }

    private func reportDropped(_ client: ClientKey, _ dropped: Int, maximumPending limit: Int, at now: Timestamp) throws -> QueuedEvent {
        let line = EventLines.status("eventsDropped", "\(dropped) events were dropped at the pending limit of \(limit)", at: now, dropped: dropped)
        let seq = try appendEvent(line, for: client, at: now.millisecondsSince1970)
        try clearDropped(of: client)
        return QueuedEvent(client: client, seq: seq, event: line, epoch: epoch)
    }
}
