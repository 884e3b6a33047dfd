import GeoWakeCore
import Geofencing
import RegionIndex

/// The checkpoint's bytes (GWC3, fields as `CheckpointWriter` writes them): written straight from the partition's
/// live state, read back as a `PartitionCheckpoint`. JSONEncoder took more than half a worker's time at 10,000
/// devices; then building every device's snapshot (a string per region, sorted) took most of a checkpoint.
extension PartitionCheckpoint {
    /// GWC3: GWC2's fields with varint integers and instants as differences (GWC1 held one region monitor per device).
    static let magic: [UInt8] = Array("GWC3".utf8)

    /// Everything but the devices, then their count: what precedes the devices' records.
    static func header(sequence: UInt64, regionSets: [String: UInt64], assignmentsRevision: UInt64, counts: InputCounts,
                       devices: Int, into out: inout CheckpointWriter) {
        out.bytes.append(contentsOf: magic)
        out.integer(sequence)
        out.integer(UInt64(regionSets.count))
        for (name, revision) in regionSets.sorted(by: { $0.key < $1.key }) {
            out.string(name)
            out.integer(revision)
        }
        out.integer(assignmentsRevision)
        for count in [counts.messages, counts.fixes, counts.malformed, counts.notAFix, counts.withoutTime, counts.outOfOrder,
                      counts.unknownSubject, counts.events] {
            out.signed(Int64(count))
        }
        out.integer(UInt64(devices))
    }

    static func decoded(_ bytes: [UInt8]) throws -> PartitionCheckpoint {
        guard Array(bytes.prefix(4)) == magic else {
            throw FleetError("a checkpoint of another format (\(String(decoding: bytes.prefix(4), as: UTF8.self)), not GWC3): drain the fleet and delete the partition.* checkpoints")
        }
        var input = CheckpointReader(bytes: bytes, offset: 4)
        var checkpoint = PartitionCheckpoint()
        checkpoint.sequence = try input.integer()
        for _ in 0..<(try input.count()) {
            let name = try input.string()
            checkpoint.regionSets[name] = try input.integer()
        }
        checkpoint.assignmentsRevision = try input.integer()
        let counts = try (0..<8).map { _ in Int(try input.signed()) }
        (checkpoint.counts.messages, checkpoint.counts.fixes, checkpoint.counts.malformed, checkpoint.counts.notAFix) =
            (counts[0], counts[1], counts[2], counts[3])
        (checkpoint.counts.withoutTime, checkpoint.counts.outOfOrder, checkpoint.counts.unknownSubject, checkpoint.counts.events) =
            (counts[4], counts[5], counts[6], counts[7])
        for _ in 0..<(try input.count()) {
            let id = try input.string()
            let lastTime = try input.time()
            var sets: [DeviceSnapshot.SetSnapshot] = []
            for _ in 0..<(try input.count()) {
                let set = try input.string()
                let lastFix = try input.lastFix()
                var records: [RegionMonitorSnapshot.RegionRecord] = []
                for _ in 0..<(try input.count()) { records.append(try input.region()) }
                // Written in the monitor's handle order; a snapshot lists them by id.
                records.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
                sets.append(DeviceSnapshot.SetSnapshot(set: set, monitor: RegionMonitorSnapshot(regions: records, lastFix: lastFix)))
            }
            checkpoint.devices.append(DeviceSnapshot(id: id, lastTime: lastTime, regionSets: sets, standard: try input.memory(),
                                                     significant: try input.memory(), visits: try input.visits()))
        }
        return checkpoint
    }
}

extension DeviceServices {
    /// The device's record, what `snapshot(id:)` holds, written from the services themselves.
    func encode(id: String, into out: inout CheckpointWriter) {
        out.string(id)
        out.time(lastTime)
        out.integer(UInt64(regionSets.count))
        for set in regionSets {
            let monitor = set.replay.service
            out.string(set.set)
            out.lastFix(monitor.lastFix)
            out.integer(UInt64(monitor.activeRegionCount))
            let store = monitor.regions.store
            monitor.forEachActiveRegion { region, insideSince, changeDue, dwellDue in
                store.withIDBytes(region) { out.region(id: $0, insideSince: insideSince, changeDue: changeDue, dwellDue: dwellDue) }
            }
        }
        out.memory(standard?.service.memory)
        out.memory(significant?.service.memory)
        out.visits(visits?.service.memory)
    }
}
