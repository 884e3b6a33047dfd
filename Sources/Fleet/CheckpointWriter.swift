import GeoWakeCore
import Geofencing
import LocationServices

/// Writes a checkpoint's fields (GWC3): integers as LEB128 varints, instants as the zigzag varint of their
/// difference from the instant written before them, doubles as their 8 bytes. A device's regions mostly share
/// the instant they were entered, so a region's record is its id and about three bytes, where GWC2's fixed
/// 8-byte fields made it 25: a checkpoint round of 10,000 devices near a hundred regions each was 26 MB.
struct CheckpointWriter {
    var bytes: [UInt8] = []
    private var lastMilliseconds: Int64 = 0

    mutating func integer(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func signed(_ value: Int64) {
        integer(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func flag(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        integer(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func string(_ value: UnsafeBufferPointer<UInt8>) {
        integer(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// An instant known to be there (its presence told elsewhere, as a region record's flags tell it).
    mutating func instant(_ value: Timestamp) {
        let milliseconds = value.millisecondsSince1970
        signed(milliseconds &- lastMilliseconds)
        lastMilliseconds = milliseconds
    }

    mutating func time(_ value: Timestamp?) {
        flag(value != nil)
        if let value { instant(value) }
    }

    mutating func optional(_ value: Double?) {
        flag(value != nil)
        if let value { double(value) }
    }

    mutating func memory(_ memory: ReportMemory?) {
        flag(memory != nil)
        guard let memory else { return }
        optional(memory.latitude)
        optional(memory.longitude)
        time(memory.at)
        time(memory.lastSeen)
    }

    mutating func visits(_ memory: VisitDetector.Memory?) {
        flag(memory != nil)
        guard let memory else { return }
        time(memory.lastSeen)
        flag(memory.stay != nil)
        guard let stay = memory.stay else { return }
        double(stay.anchorLatitude)
        double(stay.anchorLongitude)
        time(stay.arrival)
        time(stay.lastInside)
        double(stay.latitudeOffsets)
        double(stay.longitudeOffsets)
        signed(Int64(stay.count))
        flag(stay.hasArrived)
    }

    mutating func lastFix(_ fix: Fix?) {
        flag(fix != nil)
        guard let fix else { return }
        time(fix.time)
        double(fix.coordinate.latitude)
        double(fix.coordinate.longitude)
        optional(fix.altitudeMSL)
        optional(fix.speed)
        optional(fix.course)
        optional(fix.horizontalAccuracy)
        signed(Int64(fix.mode.rawValue))
        flag(fix.satellites != nil)
        if let satellites = fix.satellites { signed(Int64(satellites)) }
    }

    /// One active region of a monitor: its id, then which instants follow (bits 0 to 2: inside since, change
    /// due, dwell due), then those.
    mutating func region(id: UnsafeBufferPointer<UInt8>, insideSince: Timestamp?, changeDue: Timestamp?, dwellDue: Timestamp?) {
        string(id)
        bytes.append((insideSince == nil ? 0 : 1) | (changeDue == nil ? 0 : 2) | (dwellDue == nil ? 0 : 4))
        if let insideSince { instant(insideSince) }
        if let changeDue { instant(changeDue) }
        if let dwellDue { instant(dwellDue) }
    }
}
