import Foundation
import Synchronization

/// Who reads which partition, decided by leases in a JetStream key-value bucket whose entries expire
/// (`FleetTiming.leaseTTL`): a worker owns partition P while its `partition.P` key holds its name; it renews
/// by compare-and-set on the key's revision; a worker that dies stops renewing, the key expires, and the next
/// worker to `create` it owns the partition. Workers also keep a `worker.NAME` key alive, so each can count
/// the live workers and hold only its fair share of the partitions.
///
/// Renewal runs on a thread of its own with a connection of its own, so that a worker busy with a slow
/// JetStream call (consumers are re-created slowly while a cluster has lost a node) keeps its leases.
final class PartitionLeases: @unchecked Sendable {
    private struct Shared {
        /// Held partitions and the revision of their lease key.
        var held: [Int: UInt64] = [:]
        var lost: [Int] = []
        var workers = 1
        var stopped = false
    }

    private let bucket: KeyValueBucket
    private let connection: NATSConnection
    let workerID: String
    private let renewal: Int64
    private let shared = Mutex(Shared())

    init(servers: [String], workerID: String, layout: FleetLayout, timing: FleetTiming) throws(NATSError) {
        connection = try NATSConnection(servers: servers, name: "geowake fleet worker \(workerID) leases")
        bucket = try KeyValueBucket(connection, name: FleetLayout.leasesBucket, ttlMilliseconds: timing.leaseTTL,
                                    replicas: layout.replicas)
        self.workerID = workerID
        renewal = timing.leaseRenewal
        _ = try heartbeat()
    }

    /// Starts renewing, every `leaseRenewal`, until `leave`.
    func startRenewing(log: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [self] in
            while !shared.withLock({ $0.stopped }) {
                do {
                    _ = try heartbeat()
                    try renewAll()
                } catch {
                    log("renewing leases: \(error)")
                }
                usleep(UInt32(renewal * 1000))
            }
        }
        thread.start()
    }

    var workers: Int { shared.withLock { $0.workers } }
    var held: [Int] { shared.withLock { $0.held.keys.sorted() } }

    /// Partitions whose lease expired since the last call: another worker may own them now.
    func takeLost() -> [Int] {
        shared.withLock { state in
            defer { state.lost.removeAll() }
            return state.lost
        }
    }

    private func heartbeat() throws(NATSError) -> Int {
        try bucket.put("worker.\(workerID)", Array(workerID.utf8))
        let workers = max(1, try bucket.keyCount(prefix: "worker."))
        shared.withLock { $0.workers = workers }
        return workers
    }

    private func renewAll() throws(NATSError) {
        for (partition, last) in shared.withLock({ $0.held }) {
            let revision = try bucket.update(FleetLayout.leaseKey(partition), Array(workerID.utf8), last: last)
            shared.withLock { state in
                guard state.held[partition] == last else { return }   // released meanwhile
                if let revision {
                    state.held[partition] = revision
                } else {
                    state.held[partition] = nil
                    state.lost.append(partition)
                }
            }
        }
    }

    func acquire(_ partition: Int) throws(NATSError) -> Bool {
        guard let revision = try bucket.create(FleetLayout.leaseKey(partition), Array(workerID.utf8)) else { return false }
        shared.withLock { $0.held[partition] = revision }
        return true
    }

    func release(_ partition: Int) throws(NATSError) {
        guard shared.withLock({ $0.held.removeValue(forKey: partition) }) != nil else { return }
        try bucket.delete(FleetLayout.leaseKey(partition))
    }

    /// Releases everything and stops renewing.
    func leave() throws(NATSError) {
        shared.withLock { $0.stopped = true }
        for partition in held { try release(partition) }
        try bucket.delete("worker.\(workerID)")
    }
}
