import GeoWakeCore

/// The members of a gpsd TPV report that make a `Fix`, and the one mapping from them to a fix: the gpsd JSON
/// reader (`replay`) and live gpsd (libgps) both fill one of these, so the same report gives the same fix.
public struct GPSDReport: Equatable, Sendable {
    public var mode: Int
    public var time: Timestamp?
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeMSL: Double?
    /// Before gpsd 3.20 `alt` was the MSL altitude; later it is `altMSL` (and `alt` is deprecated).
    public var altitude: Double?
    public var speed: Double?
    public var track: Double?
    public var eph: Double?
    public var epx: Double?
    public var epy: Double?
    /// From the latest SKY report: a TPV carries no satellite count.
    public var satellites: Int?

    public init(mode: Int = 0, time: Timestamp? = nil, latitude: Double? = nil, longitude: Double? = nil,
                altitudeMSL: Double? = nil, altitude: Double? = nil, speed: Double? = nil, track: Double? = nil,
                eph: Double? = nil, epx: Double? = nil, epy: Double? = nil, satellites: Int? = nil) {
        self.mode = mode
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMSL = altitudeMSL
        self.altitude = altitude
        self.speed = speed
        self.track = track
        self.eph = eph
        self.epx = epx
        self.epy = epy
        self.satellites = satellites
    }

    /// Nil without a 2D/3D mode and a valid position; a value out of its physical range (libgps marks missing
    /// values NaN) is left out of the fix, and a track of 360° is north, 0°.
    public var fix: Fix? {
        guard mode >= 2, let latitude, let longitude, latitude.isFinite, longitude.isFinite else { return nil }
        var fix = Fix(time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                      mode: mode >= 3 ? .threeD : .twoD)
        guard fix.coordinate.isValid else { return nil }
        if let altitude = Self.finite(altitudeMSL) ?? Self.finite(altitude), (-1_000...100_000).contains(altitude) {
            fix.altitudeMSL = altitude
        }
        if let speed, (0...1_100).contains(speed) { fix.speed = speed }
        if let track, (0...360).contains(track) { fix.course = track == 360 ? 0 : track }
        fix.horizontalAccuracy = GPSDErrorEstimate.horizontalAccuracy(eph: eph, epx: epx, epy: epy)
        fix.satellites = satellites
        return fix
    }

    private static func finite(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return value
    }
}
