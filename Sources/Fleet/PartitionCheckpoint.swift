import Foundation
import Geofencing

/// A partition's state after its input up to `sequence`: every device's monitor snapshot, the region set
/// revision in force, the counts. Written (after the events it implies are acknowledged) to the checkpoints
/// bucket; a worker taking the partition over starts from it and reads the input after `sequence`.
struct PartitionCheckpoint: Codable {
    struct Device: Codable {
        var id: String
        var monitor: RegionMonitorSnapshot
    }

    var sequence: UInt64 = 0
    var regionsRevision: UInt64 = 0
    var devices: [Device] = []
    var counts = InputCounts()

    func encoded() throws -> [UInt8] {
        Array(try JSONEncoder().encode(self))
    }

    static func decoded(_ bytes: [UInt8]) throws -> PartitionCheckpoint {
        try JSONDecoder().decode(PartitionCheckpoint.self, from: Data(bytes))
    }
}
