import GeoWakeCore
import GeoWakeProtocol

/// The daemon's decisions: one input in, taken at the times the loop gives, and the effects it has out. They read no
/// clock, hold no socket and write nothing: what a fix, a timer or a request changes in the store goes out as a
/// `store` effect, and a request that writes is answered once its batch committed (`Request.swift`).
extension DaemonCore {
    /// Decides `input` and returns what every decision emitted since the loop last carried effects out. `now` is the
    /// wall clock's time (a fix's own time comes with the fix), `monotonic` the clock that paces the source's health.
    func take(_ input: DaemonInput, at now: Timestamp, monotonic: Double) -> [DaemonEffect] {
        switch input {
        case .opened(let id, let peer):
            sessions[id] = Session(peer: peer)
            emit(.send(id, ServerNotice.hello(protocol: Daemon.protocolVersion, server: "geowaked", version: Daemon.version).line, afterSync: false))
        case .request(let id, let line, let earlier, let prepared):
            handle(line, on: id, after: earlier, prepared: prepared, at: now)
        case .lineTooLong(let id):
            reply(id, id: .null, .failure(ProtocolError("messageTooLarge", "a line exceeded \(Connection.maximumLine) bytes", closes: true)))
        case .closed(let id):
            if let client = sessions.removeValue(forKey: id)?.client { emit(.tell(.connectionClosed(client))) }
        case .requestsRead:
            applyDeferredAcks()
        case .fix(let fix, let replayed):
            decide(fix, replayed: replayed, at: now, monotonic: monotonic)
        case .sourceState(let report):
            if let change = health.observe(report, at: monotonic) { announce(change, at: now) }
        case .sourceCheck:
            if let change = health.check(at: monotonic) { announce(change, at: now) }
        case .regionDeadline:
            store(StoreBatch(step.advance(to: now), at: now))
        case .traceSightings(let sightings, let position, let ended):
            decideTrace(sightings, position: position, ended: ended, at: now)
        case .scanner(let item):
            decide(item, at: now)
        case .beaconDeadline:
            decideBeaconDeadline(at: now)
        case .rebuildDeferredIndexes:
            rebuildDeferredIndexes()
        case .storing(let count):
            makeAlongsideWork(among: count)
        case .stored(let events, let queued, let requests):
            notify(events, queued: queued)
            answer(requests)
        }
        noteAdditions(at: monotonic)
        defer { effects = [] }
        return effects
    }

    func emit(_ effect: DaemonEffect) {
        effects.append(effect)
    }

    /// A batch with anything to write goes to the loop to be committed; its events are sent once it has been.
    ///
    /// A replayed trace's position goes with the next batch stored (a fix's, a region timer's, a status), not with
    /// every fix: the fixes after the stored position changed nothing stored, so a restart that feeds them again
    /// decides them as before, and a quiet fix writes nothing, replayed or live. A timer's batch carries it too, so
    /// that a restart never feeds again a fix whose debounced change or dwell already fired.
    func store(_ batch: StoreBatch) {
        guard !batch.isEmpty else { return }
        var batch = batch
        if batch.sourcePosition == nil, let position = unstoredTracePosition {
            batch.sourcePosition = position
            unstoredTracePosition = nil
        }
        emit(.store(batch))
    }
}
