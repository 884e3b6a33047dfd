#if canImport(Glibc)
import Glibc
#endif
import Geofencing
import RegionIndex

/// `geowake fleet worker`: holds its fair share of the partitions (by lease), runs every device of them
/// through the fleet's services (region monitoring on its assigned sets, standard, significant, visits), publishes the events with de-duplication ids, and checkpoints each partition
/// after its events are acknowledged. After any failed publish it goes back to its partitions' checkpoints
/// and re-processes: the events stream drops what it already holds, so nothing is published twice.
public final class FleetWorker {
    public struct Options: Sendable {
        public var workerID: String
        public var layout: FleetLayout
        public var timing: FleetTiming
        public var services: FleetServices
        /// The set of every device while no assignments say otherwise.
        public var regionSet: String
        /// Stop once input was read and none came for this many milliseconds (benchmarks, tests).
        public var exitWhenIdle: Int64?
        /// Regions loaded by the worker itself, in place of the set `regionSet` (no live changes then): the
        /// benchmarks load their sets once per worker this way.
        public var localRegions: RegionIndex?
        /// Take no partition before this many workers are alive (benchmarks: each starts with its share).
        public var minimumWorkers = 1

        public init(workerID: String, layout: FleetLayout, timing: FleetTiming = FleetTiming(),
                    services: FleetServices, regionSet: String = "default", exitWhenIdle: Int64? = nil) {
            self.workerID = workerID
            self.layout = layout
            self.timing = timing
            self.services = services
            self.regionSet = regionSet
            self.exitWhenIdle = exitWhenIdle
        }
    }

    private struct Owned {
        var state: PartitionState
        var subscription: PartitionSubscription
        var checkpointRevision: UInt64?
        var sinceCheckpoint = 0
        var lastInput: Int64
    }

    private let options: Options
    private let connection: NATSConnection
    private let leases: PartitionLeases
    private let checkpoints: KeyValueBucket
    private let regionSets: RegionSets
    private let assignments: KeyValueBucket
    private let log: @Sendable (String) -> Void
    private var owned: [Int: Owned] = [:]
    private var failuresSeen = 0
    private var address = EventAddress()
    /// The largest events body sent as one message: the server's `max_payload` less room for the headers.
    private let eventsLimit: Int
    public private(set) var statistics = WorkerStatistics()

    /// `servers` are the cluster's, for the leases' own connection.
    public init(_ connection: NATSConnection, servers: [String], options: Options, log: @escaping @Sendable (String) -> Void) throws {
        self.options = options
        self.connection = connection
        self.log = log
        try FleetSetup.ensure(connection, layout: options.layout, timing: options.timing)
        leases = try PartitionLeases(servers: servers, workerID: options.workerID, layout: options.layout, timing: options.timing)
        checkpoints = try KeyValueBucket(connection, name: FleetLayout.checkpointsBucket, replicas: options.layout.replicas)
        regionSets = try RegionSets(connection, replicas: options.layout.replicas)
        assignments = try FleetAssignments.bucket(connection, replicas: options.layout.replicas)
        failuresSeen = connection.failureCount
        eventsLimit = max(4096, connection.maxPayload - 4096)
    }

    /// Runs until `stop` says so, then checkpoints and hands its partitions back. A NATS failure (a node
    /// lost, a timeout) is not the end: the worker drops what it had not checkpointed and starts its
    /// partitions again from their checkpoints, retrying until the cluster answers.
    public func run(stop: () -> Bool) throws {
        leases.startRenewing(log: log)
        var nextTick: Int64 = 0
        var nextCheckpoint = now() + options.timing.checkpointInterval
        var earliestCheckpoint: Int64 = 0
        var restartAt: Int64?
        // Idle time counts from the last message, restart or checkpoint (each can take seconds on a busy server).
        var lastWork = WorkerStatistics.now()
        // Rounds in a row that read nothing: a caught-up worker backs off from 2 ms to 32 ms between rounds.
        var emptyRounds = 0
        while !stop() {
            do {
                let t = now()
                if let due = restartAt {
                    guard t >= due else { usleep(50_000); continue }
                    try restartFromCheckpoints()
                    restartAt = nil
                    lastWork = WorkerStatistics.now()
                }
                if t >= nextTick {
                    try leaseTick()
                    nextTick = t + options.timing.leaseRenewal
                }
                let processed = try readInput()
                if t >= earliestCheckpoint, t >= nextCheckpoint
                    || owned.values.contains(where: { $0.sinceCheckpoint >= options.timing.checkpointMessages }) {
                    let start = now()
                    // A round with nothing to write is no work: it must not keep an idle worker from exiting.
                    if try checkpointAll() { lastWork = max(lastWork, WorkerStatistics.now()) }
                    let end = now()
                    let timing = options.timing
                    earliestCheckpoint = start + min(timing.checkpointIntervalLimit, (end - start) * timing.checkpointCostFactor)
                    nextCheckpoint = max(start + timing.checkpointInterval, earliestCheckpoint)
                }
                if processed == 0 {
                    if let idle = options.exitWhenIdle, !owned.isEmpty,
                       WorkerStatistics.now() - max(lastWork, statistics.lastMessage) > idle * 1_000_000 { break }
                    usleep(Self.idlePause(afterEmptyRounds: emptyRounds))
                    emptyRounds += 1
                } else {
                    emptyRounds = 0
                }
            } catch {
                log("\(error); starting again from the checkpoints in 0.5 s")
                owned.removeAll()
                restartAt = now() + 500
            }
        }
        try checkpointAll()
        try leases.leave()
        log("stopped; partitions released; \(statistics.summary)")
    }

    /// Microseconds between rounds that read nothing. Each round asks every held partition for messages, so at a
    /// steady 2 ms an idle worker sent about 800 pull requests a second and spent a sixth of its core on them; the
    /// pause doubles up to 32 ms, the most a fix arriving at an idle worker now waits before it is read.
    static func idlePause(afterEmptyRounds rounds: Int) -> UInt32 {
        UInt32(2000 << min(rounds, 4))
    }

    /// Every held partition again from its last checkpoint; what was processed since is processed again,
    /// and its events are dropped by the events stream as duplicates.
    private func restartFromCheckpoints() throws {
        owned.removeAll()
        // What is still in flight settles first (stored, or failed by its 5 s wait): re-sent events must not
        // race copies of later ones still on their way.
        _ = connection.completePublishes(timeoutMilliseconds: 6000, failuresBefore: 0)
        failuresSeen = connection.failureCount
        for partition in leases.held { try start(partition) }
    }

    private func leaseTick() throws {
        // Every round, so that threads started since the last (a reconnect's) run behind this one as well.
        HelperThreads.yieldToCaller()
        for partition in leases.takeLost() where owned.removeValue(forKey: partition) != nil {
            log("partition \(partition) lost (its lease expired)")
        }
        let workers = leases.workers
        let partitions = options.layout.partitions
        let share = (partitions + workers - 1) / workers
        if owned.count > share {
            try checkpointAll()
            for partition in owned.keys.sorted().suffix(owned.count - share) {
                owned[partition] = nil
                try leases.release(partition)
                log("partition \(partition) released (\(workers) workers share \(partitions) partitions)")
            }
        } else if owned.count < share, workers >= options.minimumWorkers {
            let first = Int(UInt(bitPattern: options.workerID.hashValue) % UInt(partitions))
            for step in 0..<partitions where owned.count < share {
                let partition = (first + step) % partitions
                if owned[partition] == nil, try leases.acquire(partition) { try start(partition) }
            }
        }
    }

    private func start(_ partition: Int) throws {
        let entry = try checkpoints.get(FleetLayout.checkpointKey(partition))
        let checkpoint = try entry.map { try PartitionCheckpoint.decoded($0.value) } ?? PartitionCheckpoint()
        let state = try PartitionState(partition: partition, services: options.services, defaultSet: options.regionSet,
                                       checkpoint: checkpoint, sources: sources)
        let subscription = try PartitionSubscription(connection, partition: partition, from: checkpoint.sequence + 1)
        owned[partition] = Owned(state: state, subscription: subscription, checkpointRevision: entry?.revision, lastInput: now())
        log("partition \(partition) acquired from sequence \(checkpoint.sequence + 1) (\(checkpoint.devices.count) devices)")
    }

    /// Reads what is waiting, at most `readPerRound` messages or 100 ms per partition, so none starves the
    /// others and lease rounds and checkpoints come between.
    private func readInput() throws -> Int {
        var processed = 0
        let sources = self.sources
        for partition in owned.keys.sorted() {
            guard var part = owned.removeValue(forKey: partition) else { continue }
            defer { owned[partition] = part }
            var batch = 0
            let roundStart = WorkerStatistics.now()
            // Bounded in time too: leases are taken over and checkpoints written between rounds.
            while batch < options.timing.readPerRound, WorkerStatistics.now() - roundStart < 100_000_000 {
                let fetchStart = WorkerStatistics.now()
                var applied: Int64 = 0
                let fixesBefore = part.state.counts.fixes
                let count = try part.subscription.read(batch: options.timing.fetchBatch, maxBytes: options.timing.fetchBytes,
                                                       timeoutMilliseconds: 1) { message in
                    let applyStart = WorkerStatistics.now()
                    try part.state.apply(sequence: message.sequence, subject: message.subject, payload: message.payload,
                                         sources: sources, emit: publish)
                    applied += WorkerStatistics.now() - applyStart
                }
                statistics.fixes += part.state.counts.fixes - fixesBefore
                guard count > 0 else { break }
                let end = WorkerStatistics.now()
                // What the batch took beyond applying its messages is NATS's: the fetch, the acknowledgement;
                // publishing inside apply counts itself as NATS too (in `publish`).
                statistics.natsNanoseconds += end - fetchStart - applied
                statistics.busyNanoseconds += end - fetchStart
                if statistics.firstMessage == nil { statistics.firstMessage = fetchStart }
                statistics.lastMessage = end
                statistics.messages += count
                batch += count
            }
            for problem in part.state.problems { log("partition \(partition): \(problem)") }
            part.state.problems.removeAll()
            if batch > 0 {
                part.sinceCheckpoint += batch
                part.lastInput = now()
            }
            processed += batch
        }
        return processed
    }

    private var sources: PartitionSources {
        PartitionSources(regions: { [options, regionSets] set, revision in
            if set == options.regionSet, let local = options.localRegions { return local }
            return try regionSets.index(set, revision: revision)
        }, assignments: { [assignments] revision in try FleetAssignments.read(assignments, revision: revision) })
    }

    /// One events message for what one input message gave a device (more, should its events outgrow a message).
    private func publish(device: String, sequence: UInt64, lines: EventLines) throws {
        let start = WorkerStatistics.now()
        defer { statistics.natsNanoseconds += WorkerStatistics.now() - start }
        statistics.events += lines.count
        // Once a publish has failed (or the connection dropped, losing what was in flight), publishing later
        // events only widens the gap a re-send then fills out of order: stop, and go back to the checkpoints.
        guard connection.failureCount == failuresSeen else {
            throw FleetError("an event publish failed or the connection dropped; re-processing from the checkpoints")
        }
        try lines.bytes.withUnsafeBytes { body in
            for (part, range) in lines.parts(limit: eventsLimit).enumerated() {
                try address.with(device: device, sequence: sequence, part: part) { subject, id in
                    try connection.publishAsync(subject: subject, UnsafeRawBufferPointer(rebasing: body[range]), messageID: id)
                }
            }
        }
    }

    /// Waits for every event to be acknowledged, then writes each changed partition's checkpoint, by
    /// compare-and-set so that a worker that lost a partition cannot overwrite its new owner's state.
    /// Returns whether there was anything to write.
    @discardableResult
    private func checkpointAll() throws -> Bool {
        guard owned.values.contains(where: { $0.sinceCheckpoint > 0 }) else { return false }
        let start = WorkerStatistics.now()
        defer { statistics.busyNanoseconds += WorkerStatistics.now() - start }
        let unacknowledged = connection.completePublishes(timeoutMilliseconds: 10_000, failuresBefore: failuresSeen)
        statistics.natsNanoseconds += WorkerStatistics.now() - start
        if let unacknowledged {
            failuresSeen = connection.failureCount
            log("events were not stored (\(unacknowledged)); re-processing every partition from its checkpoint")
            try restartFromCheckpoints()
            return true
        }
        for partition in owned.keys.sorted() {
            guard var part = owned[partition], part.sinceCheckpoint > 0 else { continue }
            let bytes = part.state.encodedCheckpoint()
            let key = FleetLayout.checkpointKey(partition)
            let writeStart = WorkerStatistics.now()
            let revision = try part.checkpointRevision.map { try checkpoints.update(key, bytes, last: $0) }
                ?? checkpoints.create(key, bytes)
            statistics.natsNanoseconds += WorkerStatistics.now() - writeStart
            guard let revision else {
                owned[partition] = nil
                try? leases.release(partition)
                log("partition \(partition) lost (another worker wrote its checkpoint)")
                continue
            }
            part.checkpointRevision = revision
            part.sinceCheckpoint = 0
            owned[partition] = part
            log("partition \(partition) checkpointed at sequence \(part.state.sequence): \(part.state.counts.summary)")
        }
        return true
    }

    private func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
