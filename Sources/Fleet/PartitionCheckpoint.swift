/// A partition's state after its input up to `sequence`: every device's services as snapshots, the
/// revision of every region set and of the assignments announced so far (a worker monitoring another set
/// resumes from them too), the counts. Written (after the events it implies are acknowledged) to the
/// checkpoints bucket; a worker taking the partition over starts from it and reads the input after `sequence`.
struct PartitionCheckpoint {
    var sequence: UInt64 = 0
    var regionSets: [String: UInt64] = [:]
    var assignmentsRevision: UInt64 = 0
    var devices: [DeviceSnapshot] = []
    var counts = InputCounts()
}
