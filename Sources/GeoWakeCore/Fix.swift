/// One position report from a receiver: the merged result of one epoch.
public struct Fix: Hashable, Sendable {
    public enum Mode: Int, Sendable {
        case twoD = 2
        case threeD = 3
    }

    /// UTC instant; nil while the date is unknown (an NMEA GGA before any RMC or ZDA).
    public var time: Timestamp?
    public var coordinate: Coordinate
    /// Metres above mean sea level.
    public var altitudeMSL: Double?
    /// Metres per second over ground.
    public var speed: Double?
    /// Degrees true, in [0, 360).
    public var course: Double?
    /// 1-sigma horizontal accuracy radius in metres.
    public var horizontalAccuracy: Double?
    public var mode: Mode
    /// Satellites used in the solution.
    public var satellites: Int?

    @inlinable   // built once per fix by the readers in other modules
    public init(time: Timestamp?, coordinate: Coordinate, altitudeMSL: Double? = nil, speed: Double? = nil,
                course: Double? = nil, horizontalAccuracy: Double? = nil, mode: Mode = .twoD, satellites: Int? = nil) {
        self.time = time
        self.coordinate = coordinate
        self.altitudeMSL = altitudeMSL
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
        self.mode = mode
        self.satellites = satellites
    }
}
