import GRDB

/// An event as committed to a client's outbox (a row of `outbox`, with its client's key).
struct QueuedEvent: Equatable {
    var client: ClientKey
    var seq: Int64
    var event: String
    /// The store epoch of the run that queued it: with `seq`, what names the event to a client.
    var epoch: Int64
}

/// The outbox: each client's events in sequence, from the commit that produced them to the client's ack. Every fix
/// appends here and every subscriber reads and acks here, so these statements are raw cached ones (`RawStatement`).
extension StoreTransaction {
    /// Appends an event to a client's outbox with its next sequence number.
    @discardableResult
    func appendEvent(_ event: String, for client: ClientKey, at now: Int64) throws -> Int64 {
        let seq = try db.raw("UPDATE client SET lastSeq = lastSeq + 1 WHERE uid = ? AND clientID = ? RETURNING lastSeq")
            .bind(1, client.uid).bind(2, client.clientID).run() ?? 0
        try insertEvent(event, for: client, seq: seq, at: now)
        return seq
    }

    /// The same for an enabled client with fewer than `limit` pending events and none dropped, the usual case, in one
    /// statement fewer than reading the client first; nil, and nothing written, for any other client.
    func appendEvent(_ event: String, for client: ClientKey, at now: Int64, pendingBelow limit: Int) throws -> Int64? {
        guard let seq = try db.raw("""
            UPDATE client SET lastSeq = lastSeq + 1
            WHERE uid = ? AND clientID = ? AND disabled = 0 AND dropped = 0 AND lastSeq - ackedThrough < ? RETURNING lastSeq
            """).bind(1, client.uid).bind(2, client.clientID).bind(3, Int64(limit)).run() else { return nil }
        try insertEvent(event, for: client, seq: seq, at: now)
        return seq
    }

    private func insertEvent(_ event: String, for client: ClientKey, seq: Int64, at now: Int64) throws {
        try db.raw("INSERT INTO outbox (uid, clientID, seq, event, created, epoch) VALUES (?, ?, ?, ?, ?, ?)")
            .bind(1, client.uid).bind(2, client.clientID).bind(3, seq).bind(4, event).bind(5, now).bind(6, epoch).run()
    }

    /// Deletes the client's events up to `seq` and records the ack in its pending-limit books.
    func acknowledge(_ client: ClientKey, through seq: Int64) throws {
        try db.raw("DELETE FROM outbox WHERE uid = ? AND clientID = ? AND seq <= ?").bind(1, client.uid).bind(2, client.clientID).bind(3, seq).run()
        try db.raw("UPDATE client SET ackedThrough = MAX(ackedThrough, ?) WHERE uid = ? AND clientID = ?")
            .bind(1, seq).bind(2, client.uid).bind(3, client.clientID).run()
    }

    /// The sequence number of the client's first event of an epoch after `epoch`, nil when it has none.
    func firstSeq(of client: ClientKey, afterEpoch epoch: Int64) throws -> Int64? {
        // ORDER BY … LIMIT 1, not MIN: MIN over no rows would read as a NULL, which `run` takes for 0.
        try db.raw("SELECT seq FROM outbox WHERE uid = ? AND clientID = ? AND epoch > ? ORDER BY seq LIMIT 1")
            .bind(1, client.uid).bind(2, client.clientID).bind(3, epoch).run()
    }

    /// The client's events in its outbox, counted.
    func outboxCount(of client: ClientKey) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM outbox WHERE uid = ? AND clientID = ?"),
                         arguments: [client.uid, client.clientID]) ?? 0
    }
}

extension DaemonStore {
    /// At most `limit` of the client's events after `seq`, in order.
    func pendingEvents(_ client: ClientKey, after seq: Int64, limit: Int) throws -> [QueuedEvent] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT seq, event, epoch FROM outbox WHERE uid = ? AND clientID = ? AND seq > ? ORDER BY seq LIMIT ?
                """), arguments: [client.uid, client.clientID, seq, limit]).map {
                QueuedEvent(client: client, seq: $0["seq"], event: $0["event"], epoch: $0["epoch"])
            }
        }
    }
}
