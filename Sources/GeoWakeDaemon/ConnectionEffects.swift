import Foundation
import GeoWakeCore

/// The loop's side of the decisions: their effects carried out, in the order they were emitted, on the store (a
/// batch committed) and the sockets, and the outbox read for connections that are behind.
extension Daemon {
    /// Hands the decisions one input, taken now unless the times are given, and carries out what they emitted.
    func feed(_ input: DaemonInput, at wall: Timestamp? = nil, monotonic: Double? = nil) {
        carryOut(core.take(input, at: wall ?? clock.wall(), monotonic: monotonic ?? clock.monotonic()))
    }

    /// Carries out what the decisions emitted since the last call.
    func carryOut() {
        while !core.effects.isEmpty {
            let batch = core.effects
            core.effects = []
            carryOut(batch)
        }
    }

    /// Each connection a batch wrote to is flushed once, after the batch (a fix's events for a client go in one write).
    func carryOut(_ batch: [DaemonEffect]) {
        var written: Set<ConnectionID> = []
        for effect in batch { carryOut(effect, written: &written) }
        flush(&written)
    }

    /// Commits a batch on a second thread while the decisions make its requests' changes to memory that need not wait
    /// for it (`DaemonInput.storing`): the commit touches the store alone and those changes the decisions' memory
    /// alone, so registering regions takes the longer of SQLite's part and the index's, not their sum.
    private func commitAlongside(_ batch: StoreBatch) -> StoreOutcome {
        var outcome = StoreOutcome()
        var effects: [DaemonEffect] = []
        let monotonic = clock.monotonic()
        atOnce({ outcome = self.commit(batch) },
               { effects = self.core.take(.storing(requests: batch.requests.count), at: batch.time, monotonic: monotonic) })
        carryOut(effects)
        return outcome
    }

    /// Writes out what the batch queued so far: before the loop reads another connection or the launcher acts.
    private func flush(_ written: inout Set<ConnectionID>) {
        for id in written.sorted() { connections[id]?.flush() }
        written = []
    }

    private func carryOut(_ effect: DaemonEffect, written: inout Set<ConnectionID>) {
        switch effect {
        case .store(let batch):
            let outcome = core.hasAlongsideWork(among: batch.requests.count) ? commitAlongside(batch) : commit(batch)
            carryOut(core.take(.stored(batch.events, queued: outcome.queued, requests: outcome.requests), at: batch.time,
                               monotonic: commitMarks.committed))
        case .send(let id, let line, let afterSync):
            guard let connection = connections[id] else { return }
            if afterSync { connection.holdUntilSync() }
            connection.queue(line)
            written.insert(id)
        case .sendIfRoom(let id, let line):
            guard let connection = connections[id], !connection.closed, connection.hasRoom else { return }
            connection.queue(line)
            written.insert(id)
        case .event(let id, let event, let afterSync):
            guard let connection = connections[id] else { return }
            if !connection.outboxMayHaveMore, !connection.closed, connection.deliveredThrough == event.seq - 1, connection.hasRoom {
                if afterSync { connection.holdUntilSync() }
                connection.append(event)
                written.insert(id)
            } else {
                connection.outboxMayHaveMore = true
            }
        case .readOutbox(let id, let fromStart):
            guard let connection = connections[id] else { return }
            if fromStart { connection.deliveredThrough = 0 }
            connection.outboxMayHaveMore = true
        case .closeAfterSending(let id):
            connections[id]?.closeAfterFlush = true
        case .close(let id):
            connections[id]?.closed = true
        case .takeEarlierRequests(let earlier, let again, let request):
            flush(&written)
            if let connection = connections[earlier] { takeWaitingRequests(of: connection) }
            feed(.request(again, request[...], after: earlier))
        case .takeAgain(let id, let request, let earlier):
            flush(&written)
            feed(.request(id, request[...], after: earlier))
        case .tell(let news):
            flush(&written)
            tell(news)
        }
    }

    private func tell(_ news: LauncherNews) {
        switch news {
        case .connectionOpened(let client, let pid, let launchedFor): activation.connectionOpened(client, pid: pid, launchedFor: launchedFor)
        case .connectionClosed(let client): activation.connectionClosed(client)
        case .eventQueued(let client, let reason): activation.eventQueued(for: client, reason: reason)
        case .disabled(let client): activation.disabled(client)
        case .enabled(let client): activation.enabled(client)
        case .unregistered(let client): activation.unregistered(client)
        }
    }

    /// Closes the socket; the decisions then hear that the connection is gone.
    func close(_ connection: Connection) {
        Glibc.close(connection.fd)
        connections[connection.id] = nil
        feed(.closed(connection.id))
    }

    /// Sends outbox events after the last delivered one while the connection's buffer has room.
    func deliver(_ connection: Connection) {
        guard let client = core.sessions[connection.id]?.client, connection.outboxMayHaveMore, !connection.closed else { return }
        // Under `--durability full` the outbox may hold commits not yet synced: they wait for the turn's sync.
        if store.syncPending { connection.holdUntilSync() }
        while connection.hasRoom {
            guard let batch = try? store.pendingEvents(client, after: connection.deliveredThrough, limit: 256) else { return }
            for event in batch { connection.append(event) }
            if batch.count < 256 {
                connection.outboxMayHaveMore = false
                break
            }
        }
        connection.flush()
    }
}
