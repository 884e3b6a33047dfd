import GeoWakeCore
import Geofencing
import LocationServices

/// Reads what `CheckpointWriter` wrote, field for field; anything cut short or out of range is an error.
struct CheckpointReader {
    let bytes: [UInt8]
    var offset = 0
    private var lastMilliseconds: Int64 = 0

    init(bytes: [UInt8], offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    private mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw FleetError("a checkpoint cut short") }
        offset += 1
        return bytes[offset - 1]
    }

    mutating func integer() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw FleetError("a checkpoint with a bad number") }
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws -> Int64 {
        let zigzag = try integer()
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }

    mutating func count() throws -> Int {
        let value = try integer()
        guard value <= UInt64(bytes.count) else { throw FleetError("a checkpoint with a bad count") }
        return Int(value)
    }

    mutating func flag() throws -> Bool { try byte() != 0 }

    mutating func double() throws -> Double {
        guard offset + 8 <= bytes.count else { throw FleetError("a checkpoint cut short") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return Double(bitPattern: value)
    }

    mutating func string() throws -> String {
        let length = try count()
        guard offset + length <= bytes.count else { throw FleetError("a checkpoint cut short") }
        defer { offset += length }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    mutating func instant() throws -> Timestamp {
        lastMilliseconds = lastMilliseconds &+ (try signed())
        return Timestamp(millisecondsSince1970: lastMilliseconds)
    }

    mutating func time() throws -> Timestamp? {
        try flag() ? try instant() : nil
    }

    mutating func optional() throws -> Double? {
        try flag() ? try double() : nil
    }

    mutating func memory() throws -> ReportMemory? {
        guard try flag() else { return nil }
        return ReportMemory(latitude: try optional(), longitude: try optional(), at: try time(), lastSeen: try time())
    }

    mutating func visits() throws -> VisitDetector.Memory? {
        guard try flag() else { return nil }
        let lastSeen = try time()
        guard try flag() else { return VisitDetector.Memory(stay: nil, lastSeen: lastSeen) }
        let latitude = try double(), longitude = try double()
        guard let arrival = try time(), let lastInside = try time() else { throw FleetError("a checkpoint with a stay without times") }
        let stay = VisitDetector.Memory.Stay(anchorLatitude: latitude, anchorLongitude: longitude, arrival: arrival,
                                             lastInside: lastInside, latitudeOffsets: try double(), longitudeOffsets: try double(),
                                             count: Int(try signed()), hasArrived: try flag())
        return VisitDetector.Memory(stay: stay, lastSeen: lastSeen)
    }

    mutating func lastFix() throws -> RegionMonitorSnapshot.LastFix? {
        guard try flag() else { return nil }
        let time = try time()
        let latitude = try double(), longitude = try double()
        let fix = Fix(time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude), altitudeMSL: try optional(),
                      speed: try optional(), course: try optional(), horizontalAccuracy: try optional())
        var snapshot = RegionMonitorSnapshot.LastFix(fix)
        snapshot.mode = Int(try signed())
        snapshot.satellites = try flag() ? Int(try signed()) : nil
        return snapshot
    }

    mutating func region() throws -> RegionMonitorSnapshot.RegionRecord {
        let id = try string()
        let present = try byte()
        guard present < 8 else { throw FleetError("a checkpoint with a bad region record") }
        return RegionMonitorSnapshot.RegionRecord(id: id, insideSince: present & 1 != 0 ? try instant() : nil,
                                                  changeDue: present & 2 != 0 ? try instant() : nil,
                                                  dwellDue: present & 4 != 0 ? try instant() : nil)
    }
}
