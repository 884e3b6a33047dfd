/// Who reads which partition, decided by leases in a JetStream key-value bucket whose entries expire
/// (`FleetTiming.leaseTTL`): a worker owns partition P while its `partition.P` key holds its name; it renews
/// by compare-and-set on the key's revision; a worker that dies stops renewing, the key expires, and the next
/// worker to `create` it owns the partition. Workers also keep a `worker.NAME` key alive, so each can count
/// the live workers and hold only its fair share of the partitions.
final class PartitionLeases {
    private let bucket: KeyValueBucket
    let workerID: String
    /// Held partitions and the revision of their lease key.
    private(set) var held: [Int: UInt64] = [:]

    init(_ connection: NATSConnection, workerID: String, layout: FleetLayout, timing: FleetTiming) throws(NATSError) {
        bucket = try KeyValueBucket(connection, name: FleetLayout.leasesBucket, ttlMilliseconds: timing.leaseTTL,
                                    replicas: layout.replicas)
        self.workerID = workerID
    }

    /// Says this worker is alive; returns how many workers are (this one included).
    func heartbeat() throws(NATSError) -> Int {
        try bucket.put("worker.\(workerID)", Array(workerID.utf8))
        return max(1, try bucket.keys().filter { $0.hasPrefix("worker.") }.count)
    }

    func acquire(_ partition: Int) throws(NATSError) -> Bool {
        guard let revision = try bucket.create(FleetLayout.leaseKey(partition), Array(workerID.utf8)) else { return false }
        held[partition] = revision
        return true
    }

    /// False when the lease was lost (it expired and another worker may hold it now).
    func renew(_ partition: Int) throws(NATSError) -> Bool {
        guard let last = held[partition] else { return false }
        guard let revision = try bucket.update(FleetLayout.leaseKey(partition), Array(workerID.utf8), last: last) else {
            held[partition] = nil
            return false
        }
        held[partition] = revision
        return true
    }

    func release(_ partition: Int) throws(NATSError) {
        guard held.removeValue(forKey: partition) != nil else { return }
        try bucket.delete(FleetLayout.leaseKey(partition))
    }

    func leave() throws(NATSError) {
        for partition in held.keys.sorted() { try release(partition) }
        try bucket.delete("worker.\(workerID)")
    }
}
