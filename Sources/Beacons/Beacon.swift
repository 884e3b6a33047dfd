import GeoWakeCore

/// The two advertisement layouts geowake decodes.
public enum BeaconFormat: String, Hashable, Sendable {
    case iBeacon = "ibeacon"
    case altBeacon = "altbeacon"
}

/// What one beacon advertisement says about its sender.
public struct Beacon: Hashable, Sendable {
    public var format: BeaconFormat
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16
    /// RSSI at one metre as the beacon sends it (int8). A value >= 0 is not a usable calibration.
    public var measuredPower: Int8
    /// The manufacturer's company id (0x004C for iBeacon); not part of any match.
    public var company: UInt16

    public init(format: BeaconFormat, uuid: BeaconUUID, major: UInt16, minor: UInt16, measuredPower: Int8,
                company: UInt16) {
        self.format = format
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
        self.company = company
    }

    /// The identity a region or a ranging report names: the same beacon whatever its power or layout.
    public var key: BeaconKey { BeaconKey(uuid: uuid, major: major, minor: minor) }
}

/// UUID, major and minor: ranging reports one line per key, ordered by it.
public struct BeaconKey: Hashable, Comparable, Sendable {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public static func < (a: BeaconKey, b: BeaconKey) -> Bool {
        (a.uuid.high, a.uuid.low, a.major, a.minor) < (b.uuid.high, b.uuid.low, b.major, b.minor)
    }
}

/// One beacon heard at one instant: the service input of monitoring and ranging.
public struct BeaconSighting: Hashable, Sendable {
    public var time: Timestamp
    /// The advertiser's 48-bit device address, most significant byte first as printed.
    public var address: UInt64
    /// dBm as the controller reported it; 127 means not available.
    public var rssi: Int
    public var beacon: Beacon

    public init(time: Timestamp, address: UInt64, rssi: Int, beacon: Beacon) {
        self.time = time
        self.address = address
        self.rssi = rssi
        self.beacon = beacon
    }
}
