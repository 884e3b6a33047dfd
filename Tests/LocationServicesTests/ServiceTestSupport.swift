import GeoWakeCore
import LocationServices

/// Places and instants for service tests: metres from a centre in Berlin, seconds after a fixed start.
enum Here {
    static let center = Coordinate(latitude: 52.52, longitude: 13.40)
    static let start = Timestamp(millisecondsSince1970: 1_717_390_800_000)

    /// A point `metres` from `origin` on `bearing` (east by default).
    static func offset(_ metres: Double, bearing: Double = 90, from origin: Coordinate = center) -> Coordinate {
        Geodesy.destination(from: origin, bearing: bearing, distance: metres)
    }

    static func instant(_ seconds: Double) -> Timestamp { start + seconds }

    static func fix(_ coordinate: Coordinate, at seconds: Double, accuracy: Double? = nil) -> Fix {
        Fix(time: instant(seconds), coordinate: coordinate, horizontalAccuracy: accuracy)
    }
}
