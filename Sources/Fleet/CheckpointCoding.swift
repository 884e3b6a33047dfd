import GeoWakeCore
import Geofencing
import LocationServices

/// The checkpoint's bytes: a flat little-endian layout written and read field by field. JSONEncoder took
/// more than half a worker's time at 10,000 devices (every device's snapshot, every second).
extension PartitionCheckpoint {
    /// GWC2: every service of a device and the assignments' revision (GWC1 held one region monitor per device).
    static let magic: [UInt8] = Array("GWC2".utf8)

    func encoded() -> [UInt8] {
        var out = CheckpointWriter()
        out.bytes.append(contentsOf: Self.magic)
        out.integer(sequence)
        out.integer(UInt64(regionSets.count))
        for (name, revision) in regionSets.sorted(by: { $0.key < $1.key }) {
            out.string(name)
            out.integer(revision)
        }
        out.integer(assignmentsRevision)
        for count in [counts.messages, counts.fixes, counts.malformed, counts.notAFix, counts.withoutTime, counts.outOfOrder,
                      counts.unknownSubject, counts.events] {
            out.integer(UInt64(bitPattern: Int64(count)))
        }
        out.integer(UInt64(devices.count))
        for device in devices {
            out.string(device.id)
            out.time(device.lastTime)
            out.integer(UInt64(device.regionSets.count))
            for set in device.regionSets {
                out.string(set.set)
                out.lastFix(set.monitor.lastFix)
                out.integer(UInt64(set.monitor.regions.count))
                for record in set.monitor.regions {
                    out.string(record.id)
                    out.time(record.insideSince)
                    out.time(record.changeDue)
                    out.time(record.dwellDue)
                }
            }
            out.memory(device.standard)
            out.memory(device.significant)
            out.visits(device.visits)
        }
        return out.bytes
    }

    static func decoded(_ bytes: [UInt8]) throws -> PartitionCheckpoint {
        var input = CheckpointReader(bytes: bytes)
        guard Array(bytes.prefix(4)) == magic else {
            throw FleetError("a checkpoint of another format (\(String(decoding: bytes.prefix(4), as: UTF8.self)), not GWC2): drain the fleet and delete the partition.* checkpoints")
        }
        input.offset = 4
        var checkpoint = PartitionCheckpoint()
        checkpoint.sequence = try input.integer()
        for _ in 0..<(try input.count()) {
            let name = try input.string()
            checkpoint.regionSets[name] = try input.integer()
        }
        checkpoint.assignmentsRevision = try input.integer()
        var counts = try (0..<8).map { _ in Int(Int64(bitPattern: try input.integer())) }
        (checkpoint.counts.messages, checkpoint.counts.fixes, checkpoint.counts.malformed, checkpoint.counts.notAFix) =
            (counts[0], counts[1], counts[2], counts[3])
        (checkpoint.counts.withoutTime, checkpoint.counts.outOfOrder, checkpoint.counts.unknownSubject, checkpoint.counts.events) =
            (counts[4], counts[5], counts[6], counts[7])
        counts.removeAll()
        for _ in 0..<(try input.count()) {
            let id = try input.string()
            let lastTime = try input.time()
            var sets: [DeviceSnapshot.SetSnapshot] = []
            for _ in 0..<(try input.count()) {
                let set = try input.string()
                let lastFix = try input.lastFix()
                var records: [RegionMonitorSnapshot.RegionRecord] = []
                for _ in 0..<(try input.count()) {
                    records.append(RegionMonitorSnapshot.RegionRecord(id: try input.string(), insideSince: try input.time(),
                                                                      changeDue: try input.time(), dwellDue: try input.time()))
                }
                sets.append(DeviceSnapshot.SetSnapshot(set: set, monitor: RegionMonitorSnapshot(regions: records, lastFix: lastFix)))
            }
            checkpoint.devices.append(DeviceSnapshot(id: id, lastTime: lastTime, regionSets: sets, standard: try input.memory(),
                                                     significant: try input.memory(), visits: try input.visits()))
        }
        return checkpoint
    }
}

private struct CheckpointWriter {
    var bytes: [UInt8] = []

    mutating func integer(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) { integer(value.bitPattern) }

    mutating func string(_ value: String) {
        integer(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func time(_ value: Timestamp?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { integer(UInt64(bitPattern: value.millisecondsSince1970)) }
    }

    mutating func optional(_ value: Double?) {
        bytes.append(value == nil ? 0 : 1)
        if let value { double(value) }
    }

    mutating func memory(_ memory: ReportMemory?) {
        bytes.append(memory == nil ? 0 : 1)
        guard let memory else { return }
        optional(memory.latitude)
        optional(memory.longitude)
        time(memory.at)
        time(memory.lastSeen)
    }

    mutating func visits(_ memory: VisitDetector.Memory?) {
        bytes.append(memory == nil ? 0 : 1)
        guard let memory else { return }
        time(memory.lastSeen)
        bytes.append(memory.stay == nil ? 0 : 1)
        guard let stay = memory.stay else { return }
        double(stay.anchorLatitude)
        double(stay.anchorLongitude)
        time(stay.arrival)
        time(stay.lastInside)
        double(stay.latitudeOffsets)
        double(stay.longitudeOffsets)
        integer(UInt64(bitPattern: Int64(stay.count)))
        bytes.append(stay.hasArrived ? 1 : 0)
    }

    mutating func lastFix(_ fix: RegionMonitorSnapshot.LastFix?) {
        bytes.append(fix == nil ? 0 : 1)
        guard let fix else { return }
        time(fix.time)
        double(fix.latitude)
        double(fix.longitude)
        optional(fix.altitudeMSL)
        optional(fix.speed)
        optional(fix.course)
        optional(fix.horizontalAccuracy)
        integer(UInt64(fix.mode))
        optional(fix.satellites.map(Double.init))
    }
}

private struct CheckpointReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func integer() throws -> UInt64 {
        guard offset + 8 <= bytes.count else { throw FleetError("a checkpoint cut short") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return value
    }

    mutating func count() throws -> Int {
        let value = try integer()
        guard value <= UInt64(bytes.count) else { throw FleetError("a checkpoint with a bad count") }
        return Int(value)
    }

    mutating func flag() throws -> Bool {
        guard offset < bytes.count else { throw FleetError("a checkpoint cut short") }
        offset += 1
        return bytes[offset - 1] != 0
    }

    mutating func string() throws -> String {
        let length = try count()
        guard offset + length <= bytes.count else { throw FleetError("a checkpoint cut short") }
        defer { offset += length }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    mutating func time() throws -> Timestamp? {
        try flag() ? Timestamp(millisecondsSince1970: Int64(bitPattern: try integer())) : nil
    }

    mutating func optional() throws -> Double? {
        try flag() ? Double(bitPattern: try integer()) : nil
    }

    mutating func memory() throws -> ReportMemory? {
        guard try flag() else { return nil }
        return ReportMemory(latitude: try optional(), longitude: try optional(), at: try time(), lastSeen: try time())
    }

    mutating func visits() throws -> VisitDetector.Memory? {
        guard try flag() else { return nil }
        let lastSeen = try time()
        guard try flag() else { return VisitDetector.Memory(stay: nil, lastSeen: lastSeen) }
        let latitude = Double(bitPattern: try integer()), longitude = Double(bitPattern: try integer())
        guard let arrival = try time(), let lastInside = try time() else { throw FleetError("a checkpoint with a stay without times") }
        let stay = VisitDetector.Memory.Stay(anchorLatitude: latitude, anchorLongitude: longitude, arrival: arrival,
                                             lastInside: lastInside, latitudeOffsets: Double(bitPattern: try integer()),
                                             longitudeOffsets: Double(bitPattern: try integer()),
                                             count: Int(Int64(bitPattern: try integer())), hasArrived: try flag())
        return VisitDetector.Memory(stay: stay, lastSeen: lastSeen)
    }

    mutating func lastFix() throws -> RegionMonitorSnapshot.LastFix? {
        guard try flag() else { return nil }
        let time = try time()
        let latitude = Double(bitPattern: try integer())
        let longitude = Double(bitPattern: try integer())
        let fix = Fix(time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude), altitudeMSL: try optional(),
                      speed: try optional(), course: try optional(), horizontalAccuracy: try optional())
        var snapshot = RegionMonitorSnapshot.LastFix(fix)
        snapshot.mode = Int(try integer())
        snapshot.satellites = try optional().map { Int($0) }
        return snapshot
    }
}
