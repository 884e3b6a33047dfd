import GeoWakeCore

/// What the standard and significant-change services remember between fixes (the last fix they passed on, and when,
/// and the latest `now` seen), as a value a caller can store to continue a service across a restart.
public struct ReportMemory: Codable, Equatable, Sendable {
    public var latitude: Double?
    public var longitude: Double?
    public var at: Timestamp?
    public var lastSeen: Timestamp?

    public init(latitude: Double?, longitude: Double?, at: Timestamp?, lastSeen: Timestamp?) {
        self.latitude = latitude
        self.longitude = longitude
        self.at = at
        self.lastSeen = lastSeen
    }

    init(last: (coordinate: Coordinate, at: Timestamp)?, lastSeen: Timestamp?) {
        latitude = last?.coordinate.latitude
        longitude = last?.coordinate.longitude
        at = last?.at
        self.lastSeen = lastSeen
    }

    var last: (coordinate: Coordinate, at: Timestamp)? {
        guard let latitude, let longitude, let at else { return nil }
        return (Coordinate(latitude: latitude, longitude: longitude), at)
    }
}
