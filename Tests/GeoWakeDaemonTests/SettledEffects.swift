import GeoWakeCore
@testable import GeoWakeDaemon

extension Daemon {
    /// Hands the core one input and carries out its requests' `store` effects as the loop does (the batch committed,
    /// then `stored` given back, and a request taken again after them), returning every other effect in order: a test of the decisions about requests sees
    /// their replies as a client would, with no socket.
    func settle(_ input: DaemonInput, at now: Timestamp, monotonic: Double = 0) -> [DaemonEffect] {
        settle(core.take(input, at: now, monotonic: monotonic), at: now, monotonic: monotonic)
    }

    /// The same for effects already taken from the core.
    func settle(_ effects: [DaemonEffect], at now: Timestamp, monotonic: Double = 0) -> [DaemonEffect] {
        effects.flatMap { effect -> [DaemonEffect] in
            if case .takeAgain(let connection, let line, let earlier) = effect {
                return settle(.request(connection, line[...], after: earlier), at: now, monotonic: monotonic)
            }
            guard case .store(let batch) = effect, !batch.requests.isEmpty else { return [effect] }
            let outcome = commit(batch)
            return settle(core.take(.stored(batch.events, queued: outcome.queued, requests: outcome.requests), at: now, monotonic: monotonic),
                          at: now, monotonic: monotonic)
        }
    }
}
