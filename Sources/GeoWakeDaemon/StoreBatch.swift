import GeoWakeCore

/// What one decision writes to the store, in one transaction, before its events or replies go out
/// (`DaemonEffect.store`): a fix's, a timer's or sightings' states, events and memories, or requests' changes. The
/// decision only describes it: the loop commits it (`Daemon.commit`), so the decisions stay free of the store's I/O and
/// the benchmark's latency marks stay in the loop.
struct StoreBatch: Equatable {
    /// The events' `created` time.
    var time: Timestamp
    /// Queued in order, each within its client's pending limit (`Daemon.enqueue`).
    var events: [ClientEvent] = []
    var regionChanges: [SharedRegions.Change] = []
    var memories: [ServiceMemory] = []
    var beaconRegions: [BeaconRegionRecord] = []
    /// A trace's position after the fix or sightings, so that a restart resumes after them.
    var sourcePosition: (source: String, position: Int)?
    /// Requests' writes, each in a savepoint of its own after the rest, answered in order (`DaemonInput.stored`).
    var requests: [RequestWrite] = []

    var isEmpty: Bool {
        events.isEmpty && regionChanges.isEmpty && memories.isEmpty && beaconRegions.isEmpty && sourcePosition == nil && requests.isEmpty
    }

    static func == (a: StoreBatch, b: StoreBatch) -> Bool {
        a.time == b.time && a.events == b.events && a.regionChanges == b.regionChanges && a.memories == b.memories
            && a.beaconRegions == b.beaconRegions && a.sourcePosition?.source == b.sourcePosition?.source
            && a.sourcePosition?.position == b.sourcePosition?.position && a.requests == b.requests
    }
}

/// What a committed batch did: its events as queued, and each request's outcome, in the batch's order.
struct StoreOutcome {
    var queued: [QueuedEvent] = []
    var requests: [Result<RequestWrite.Outcome, ProtocolError>] = []
}

extension Daemon {
    /// Carries out a `store` effect: one transaction, with the moments its writes were done and committed kept for
    /// the fix's latency marks. A request that fails (a `ProtocolError` of the store's checks, or the store) rolls back
    /// alone; when the transaction cannot commit, nothing is queued and every request fails (logged).
    func commit(_ batch: StoreBatch) -> StoreOutcome {
        var outcome = StoreOutcome()
        let limit = core.limits.maximumPendingEvents
        do {
            try store.write(synced: batch.requests.contains(where: \.synced)) { transaction in
                try transaction.saveRegionStates(batch.regionChanges)
                for record in batch.beaconRegions { try transaction.save(record) }
                outcome.queued = try transaction.enqueue(batch.events, maximumPending: limit, at: batch.time)
                for memory in batch.memories { try transaction.save(memory) }
                if let position = batch.sourcePosition { try transaction.setSourcePosition(position.position, of: position.source) }
                for request in batch.requests {
                    outcome.requests.append(try apply(request, transaction, maximumPending: limit, at: batch.time))
                }
                commitMarks.written = clock.monotonic()
            }
        } catch {
            outcome = StoreOutcome(requests: batch.requests.map { _ in .failure(Self.storeFailure(error)) })
            logger.error("cannot store a step's writes", metadata: ["error": "\(error)"])
        }
        commitMarks.committed = clock.monotonic()
        return outcome
    }

    /// One request's writes in a savepoint, rolled back when one of them fails.
    private func apply(_ request: RequestWrite, _ transaction: StoreTransaction, maximumPending limit: Int,
                       at now: Timestamp) throws -> Result<RequestWrite.Outcome, ProtocolError> {
        var result: Result<RequestWrite.Outcome, ProtocolError> = .failure(ProtocolError("internal", "the request was not applied"))
        try transaction.inSavepoint {
            do {
                let answers = try request.changes.map { try transaction.apply($0, maximumPending: limit, at: now) }
                result = .success(RequestWrite.Outcome(answers: answers, queued: try transaction.enqueue(request.events, maximumPending: limit, at: now)))
                return true
            } catch let error as ProtocolError {
                result = .failure(error)
            } catch {
                logger.error("store write failed", metadata: ["error": "\(error)"])
                result = .failure(Self.storeFailure(error))
            }
            return false
        }
        return result
    }

    private static func storeFailure(_ error: Error) -> ProtocolError {
        ProtocolError("internal", "the store could not be written: \(error)")
    }
}

extension StoreBatch {
    /// What a fix or a region timer decided, with its events created at `time`.
    init(_ outcome: FixOutcome, at time: Timestamp) {
        self.init(time: time, events: outcome.events, regionChanges: outcome.regionChanges, memories: outcome.memories)
    }
}
