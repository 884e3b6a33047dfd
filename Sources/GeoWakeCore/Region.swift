/// A monitored area: a geodesic circle, a polygon (with holes, possibly several parts), or a beacon region.
public struct Region: Hashable, Sendable {
    public enum Shape: Hashable, Sendable {
        /// Inside when the WGS84 geodesic distance to `center` is at most `radius` metres.
        case circle(center: Coordinate, radius: Double)
        /// Inside in planar longitude/latitude, the GeoJSON convention.
        case polygon(MultiPolygon)
        /// No geometry: entered when a matching beacon is sighted.
        case beacon(BeaconIdentity)
    }

    public var id: String
    public var shape: Shape
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    /// Seconds of loitering inside before a `dwell` event; nil for none.
    public var dwell: Double?

    public init(id: String, shape: Shape, notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwell: Double? = nil) {
        self.id = id
        self.shape = shape
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.dwell = dwell
    }

    public static func circle(id: String, latitude: Double, longitude: Double, radius: Double) -> Region {
        Region(id: id, shape: .circle(center: Coordinate(latitude: latitude, longitude: longitude), radius: radius))
    }
}

/// Polygons as GeoJSON nests them: each polygon is a list of closed rings, the first the shell, the rest holes.
public struct MultiPolygon: Hashable, Sendable {
    public var polygons: [[[Coordinate]]]

    public init(polygons: [[[Coordinate]]]) {
        self.polygons = polygons
    }

    public var vertexCount: Int { polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }
}

/// An iBeacon-style identity; a nil major or minor matches any value.
public struct BeaconIdentity: Hashable, Sendable {
    /// Canonical upper-case 8-4-4-4-12 form.
    public var uuid: String
    public var major: UInt16?
    public var minor: UInt16?

    public init(uuid: String, major: UInt16? = nil, minor: UInt16? = nil) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }
}
