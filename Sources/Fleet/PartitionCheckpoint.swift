import Geofencing

/// A partition's state after its input up to `sequence`: every device's monitor snapshot, the revision of
/// every region set announced so far (a worker monitoring another set resumes from it too), the counts.
/// Written (after the events it implies are acknowledged) to the checkpoints bucket; a worker taking the
/// partition over starts from it and reads the input after `sequence`.
struct PartitionCheckpoint {
    struct Device {
        var id: String
        var monitor: RegionMonitorSnapshot
    }

    var sequence: UInt64 = 0
    var regionSets: [String: UInt64] = [:]
    var devices: [Device] = []
    var counts = InputCounts()
}
