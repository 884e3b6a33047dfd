/// A beacon region: a UUID, optionally narrowed by major and minor (0 is a value, not a wildcard) and by format.
public struct BeaconRegion: Hashable, Sendable {
    public var id: String
    public var uuid: BeaconUUID
    public var major: UInt16?
    public var minor: UInt16?
    /// nil: iBeacons and AltBeacons both match.
    public var format: BeaconFormat?
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool

    public init(id: String, uuid: BeaconUUID, major: UInt16? = nil, minor: UInt16? = nil, format: BeaconFormat? = nil,
                notifyOnEntry: Bool = true, notifyOnExit: Bool = true) {
        self.id = id
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.format = format
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }

    public func matches(_ beacon: Beacon) -> Bool {
        beacon.uuid == uuid
            && (major == nil || major == beacon.major)
            && (minor == nil || minor == beacon.minor)
            && (format == nil || format == beacon.format)
    }
}
