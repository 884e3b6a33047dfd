import GeoWakeCore
import Geofencing

/// The checkpoint's bytes: a flat little-endian layout written and read field by field. JSONEncoder took
/// more than half a worker's time at 10,000 devices (every device's snapshot, every second).
extension PartitionCheckpoint {
    static let magic: [UInt8] = Array("GWC1".utf8)

    func encoded() -> [UInt8] {
        var out = CheckpointWriter()
        out.bytes.append(contentsOf: Self.magic)
        out.integer(sequence)
        out.integer(UInt64(regionSets.count))
        for (name, revision) in regionSets.sorted(by: { $0.key < $1.key }) {
            out.string(name)
            out.integer(revision)
        }
        for count in [counts.messages, counts.fixes, counts.malformed, counts.notAFix, counts.withoutTime, counts.outOfOrder,
                      counts.unknownSubject, counts.events] {
            out.integer(UInt64(bitPattern: Int64(count)))
        }
        out.integer(UInt64(devices.count))
        for device in devices {
            out.string(device.id)
            out.lastFix(device.monitor.lastFix)
            out.integer(UInt64(device.monitor.regions.count))
            for record in device.monitor.regions {
                out.string(record.id)
                out.time(record.insideSince)
                out.time(record.changeDue)
                out.time(record.dwellDue)
            }
        }
        return out.bytes
    }

    static func decoded(_ bytes: [UInt8]) throws -> PartitionCheckpoint {
        var input = CheckpointReader(bytes: bytes)
        guard Array(bytes.prefix(4)) == magic else { throw FleetError("a checkpoint of another format") }
        input.offset = 4
        var checkpoint = PartitionCheckpoint()
        checkpoint.sequence = try input.integer()
        for _ in 0..<(try input.count()) {
            let name = try input.string()
            checkpoint.regionSets[name] = try input.integer()
        }
        var counts = try (0..<8).map { _ in Int(Int64(bitPattern: try input.integer())) }
        (checkpoint.counts.messages, checkpoint.counts.fixes, checkpoint.counts.malformed, checkpoint.counts.notAFix) =
            (counts[0], counts[1], counts[2], counts[3])
        (checkpoint.counts.withoutTime, checkpoint.counts.outOfOrder, checkpoint.counts.unknownSubject, checkpoint.counts.events) =
            (counts[4], counts[5], counts[6], counts[7])
        counts.removeAll()
        for _ in 0..<(try input.count()) {
            let id = try input.string()
            let lastFix = try input.lastFix()
            var records: [RegionMonitorSnapshot.RegionRecord] = []
            for _ in 0..<(try input.count()) {
                records.append(RegionMonitorSnapshot.RegionRecord(id: try input.string(), insideSince: try input.time(),
                                                                  changeDue: try input.time(), dwellDue: try input.time()))
            }
            checkpoint.devices.append(Device(id: id, monitor: RegionMonitorSnapshot(regions: records, lastFix: lastFix)))
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
