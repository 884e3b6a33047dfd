import GeoWakeCore

/// One advertisement as a scanner heard it: who sent it, how loud, and its advertising data (AD structures),
/// not yet decoded. Beacon traces, btsnoop captures and the live HCI scanner all produce these.
public struct AdvertisingReport: Hashable, Sendable {
    public var time: Timestamp
    /// 48-bit device address, most significant byte first as printed (HCI sends it least significant first).
    public var address: UInt64
    /// dBm; 127 is the controller's "not available".
    public var rssi: Int
    public var data: [UInt8]

    public init(time: Timestamp, address: UInt64, rssi: Int, data: [UInt8]) {
        self.time = time
        self.address = address
        self.rssi = rssi
        self.data = data
    }
}

/// What reading a beacon source found, for the summary on standard error.
public struct AdvertisingStatistics: Hashable, Sendable {
    /// JSON lines or btsnoop records read.
    public var records = 0
    public var reports = 0
    /// Lines or records that were not an advertisement: not JSON, a bad field, a damaged HCI event.
    public var malformed = 0
    /// btsnoop only: HCI packets that are not LE advertising reports (commands, other events, ACL data).
    public var otherPackets = 0
    /// Extended-report fragments (data status "incomplete"), which carry part of an advertisement only.
    public var fragments = 0

    public init() {}
}
