/// Decodes a run of AD structures (`length, type, value`, Core Specification Vol 3 Part C §11) into beacons.
///
/// A zero length ends the data, as the specification allows for padding. Every manufacturer-specific structure
/// (type 0xFF) is examined wherever it stands. A structure running past the end, and an iBeacon or AltBeacon
/// signature with the wrong value length, is malformed: counted, never trapped on, and the complete
/// structures before it still count.
public enum AdvertisingData {
    public struct Outcome: Hashable, Sendable {
        /// Beacons decoded, in the order their structures stand.
        public var beacons: Int = 0
        /// Malformed structures: an overrun, or a beacon signature with the wrong length.
        public var malformed: Int = 0
    }

    static let manufacturerSpecific: UInt8 = 0xFF
    static let iBeaconValueLength = 25
    static let altBeaconValueLength = 26

    /// Appends each beacon found in `data` to `beacons`.
    @discardableResult
    public static func beacons(in data: UnsafeBufferPointer<UInt8>, into beacons: inout [Beacon]) -> Outcome {
        var outcome = Outcome()
        var i = 0
        while i < data.count {
            let length = Int(data[i])
            if length == 0 { break }
            guard i + length < data.count else {
                outcome.malformed += 1
                break
            }
            if data[i + 1] == manufacturerSpecific {
                switch manufacturerBeacon(data, value: i + 2, count: length - 1) {
                case .beacon(let beacon):
                    beacons.append(beacon)
                    outcome.beacons += 1
                case .malformed: outcome.malformed += 1
                case .other: break
                }
            }
            i += length + 1
        }
        return outcome
    }

    public static func beacons(in data: [UInt8]) -> (beacons: [Beacon], outcome: Outcome) {
        var found: [Beacon] = []
        let outcome = data.withUnsafeBufferPointer { beacons(in: $0, into: &found) }
        return (found, outcome)
    }

    private enum Structure {
        case beacon(Beacon)
        case malformed
        case other
    }

    /// Reads a manufacturer-specific value: company id (little-endian), then the beacon's own bytes.
    private static func manufacturerBeacon(_ d: UnsafeBufferPointer<UInt8>, value v: Int, count: Int) -> Structure {
        guard count >= 4 else {
            // A signature cut short (`BE` without `AC`, Apple's `02` without `15`) is a damaged beacon, not another kind.
            guard count == 3 else { return .other }
            let cut = d[v + 2] == 0xBE || d[v] == 0x4C && d[v + 1] == 0x00 && d[v + 2] == 0x02
            return cut ? .malformed : .other
        }
        let company = UInt16(d[v]) | UInt16(d[v + 1]) << 8
        if company == 0x004C && d[v + 2] == 0x02 && d[v + 3] == 0x15 {
            guard count == iBeaconValueLength else { return .malformed }
            return .beacon(Beacon(format: .iBeacon, uuid: BeaconUUID(bytes: d, at: v + 4),
                                  major: bigEndian(d, v + 20), minor: bigEndian(d, v + 22),
                                  measuredPower: Int8(bitPattern: d[v + 24]), company: company))
        }
        if d[v + 2] == 0xBE && d[v + 3] == 0xAC {
            guard count == altBeaconValueLength else { return .malformed }
            return .beacon(Beacon(format: .altBeacon, uuid: BeaconUUID(bytes: d, at: v + 4),
                                  major: bigEndian(d, v + 20), minor: bigEndian(d, v + 22),
                                  measuredPower: Int8(bitPattern: d[v + 24]), company: company))
        }
        return .other
    }

    @inline(__always) private static func bigEndian(_ d: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt16 {
        UInt16(d[at]) << 8 | UInt16(d[at + 1])
    }
}
