import GeoWakeCore

/// What one decision about a fix, a timer or sightings writes to the store, in one transaction, before its events go
/// out (`DaemonEffect.store`). The decision only describes it: the loop commits it (`Daemon.commit`), so the
/// decisions stay free of the store's I/O and the benchmark's latency marks stay in the loop.
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

    var isEmpty: Bool {
        events.isEmpty && regionChanges.isEmpty && memories.isEmpty && beaconRegions.isEmpty && sourcePosition == nil
    }

    static func == (a: StoreBatch, b: StoreBatch) -> Bool {
        a.time == b.time && a.events == b.events && a.regionChanges == b.regionChanges && a.memories == b.memories
            && a.beaconRegions == b.beaconRegions && a.sourcePosition?.source == b.sourcePosition?.source
            && a.sourcePosition?.position == b.sourcePosition?.position
    }
}

extension Daemon {
    /// Carries out a `store` effect: one transaction, with the moments its writes were done and committed kept for
    /// the fix's latency marks. Returns what was queued; nothing when the store could not be written (logged).
    func commit(_ batch: StoreBatch) -> [QueuedEvent] {
        var queued: [QueuedEvent] = []
        do {
            try store.write { transaction in
                try transaction.saveRegionStates(batch.regionChanges)
                for record in batch.beaconRegions { try transaction.save(record) }
                queued = try core.enqueue(transaction, batch.events, now: batch.time)
                for memory in batch.memories { try transaction.save(memory) }
                if let position = batch.sourcePosition { try transaction.setSourcePosition(position.position, of: position.source) }
                commitMarks.written = clock.monotonic()
            }
        } catch {
            queued = []
            logger.error("cannot store a step's events", metadata: ["error": "\(error)"])
        }
        commitMarks.committed = clock.monotonic()
        return queued
    }
}

extension StoreBatch {
    /// What a fix or a region timer decided, with its events created at `time`.
    init(_ outcome: FixOutcome, at time: Timestamp) {
        self.init(time: time, events: outcome.events, regionChanges: outcome.regionChanges, memories: outcome.memories)
    }
}
