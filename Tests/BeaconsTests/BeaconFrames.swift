@testable import Beacons

/// Byte-exact advertising data for the tests, built the way beacons send it.
enum BeaconFrames {
    static let uuidText = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"
    static let uuidBytes: [UInt8] = [0xF7, 0x82, 0x6D, 0xA6, 0x4F, 0xA2, 0x4E, 0x98, 0x80, 0x24,
                                     0xBC, 0x5B, 0x71, 0xE0, 0x89, 0x3E]
    static let uuid = BeaconUUID(uuidText)!
    static let flags: [UInt8] = [0x02, 0x01, 0x06]
    static let name: [UInt8] = [0x05, 0x09] + Array("shop".utf8)
    /// A manufacturer structure of another kind (Microsoft's company id, a Swift Pair-like payload).
    static let foreign: [UInt8] = [0x06, 0xFF, 0x06, 0x00, 0x03, 0x00, 0x80]

    static func iBeacon(major: UInt16 = 1, minor: UInt16 = 2, power: Int8 = -59, uuid: [UInt8] = uuidBytes) -> [UInt8] {
        let value: [UInt8] = [0x4C, 0x00, 0x02, 0x15] + uuid + [UInt8(major >> 8), UInt8(major & 0xFF),
                                                              UInt8(minor >> 8), UInt8(minor & 0xFF), UInt8(bitPattern: power)]
        return [UInt8(value.count + 1), 0xFF] + value
    }

    static func altBeacon(major: UInt16 = 3, minor: UInt16 = 4, power: Int8 = -65, company: UInt16 = 0x0118) -> [UInt8] {
        let value: [UInt8] = [UInt8(company & 0xFF), UInt8(company >> 8), 0xBE, 0xAC] + uuidBytes
            + [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF), UInt8(bitPattern: power), 0x00]
        return [UInt8(value.count + 1), 0xFF] + value
    }

    static func beacon(_ format: BeaconFormat, major: UInt16, minor: UInt16, power: Int8 = -59,
                       uuid: BeaconUUID = uuid) -> Beacon {
        Beacon(format: format, uuid: uuid, major: major, minor: minor, measuredPower: power,
               company: format == .iBeacon ? 0x004C : 0x0118)
    }
}

