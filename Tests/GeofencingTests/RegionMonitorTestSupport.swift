import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

/// Places and instants for monitor tests: metres east of a centre in Berlin, seconds after a fixed start.
enum Berlin {
    static let center = Coordinate(latitude: 52.52, longitude: 13.40)

    /// A point `metres` from `origin` on `bearing` (east by default; negative metres go the other way).
    static func offset(_ metres: Double, bearing: Double = 90, from origin: Coordinate = center) -> Coordinate {
        metres >= 0 ? Geodesy.destination(from: origin, bearing: bearing, distance: metres)
            : Geodesy.destination(from: origin, bearing: bearing + 180, distance: -metres)
    }

    static func circle(_ id: String, radius: Double = 100, at center: Coordinate = center, notifyOnEntry: Bool = true,
                       notifyOnExit: Bool = true, dwell: Double? = nil) -> Region {
        Region(id: id, shape: .circle(center: center, radius: radius),
               notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit, dwell: dwell)
    }

    /// An axis-aligned square polygon of `side` metres around `center`.
    static func square(_ id: String, side: Double, at center: Coordinate = center) -> Region {
        let half = side / 2
        let north = offset(half, bearing: 0, from: center).latitude, south = offset(-half, bearing: 0, from: center).latitude
        let east = offset(half, from: center).longitude, west = offset(-half, from: center).longitude
        let ring = [Coordinate(latitude: south, longitude: west), Coordinate(latitude: south, longitude: east),
                    Coordinate(latitude: north, longitude: east), Coordinate(latitude: north, longitude: west),
                    Coordinate(latitude: south, longitude: west)]
        return Region(id: id, shape: .polygon(MultiPolygon(polygons: [[ring]])))
    }
}

let start = Timestamp(millisecondsSince1970: 1_717_390_800_000)

func instant(_ seconds: Double) -> Timestamp { start + seconds }

/// Drives a monitor with fixes at whole seconds and renders its events as `"enter a @12"` (`"… crossed"` when
/// crossed), so that expectations read like the replay output they stand for.
struct MonitorDriver<Regions: RegionQuerying> {
    var monitor: RegionMonitor<Regions>

    init(_ regions: Regions, _ configuration: RegionMonitorConfiguration = RegionMonitorConfiguration()) {
        monitor = RegionMonitor(regions: regions, configuration: configuration)
    }

    mutating func fix(_ coordinate: Coordinate, at seconds: Double, accuracy: Double? = nil) -> [String] {
        let fix = Fix(time: instant(seconds), coordinate: coordinate, horizontalAccuracy: accuracy)
        return monitor.update(with: fix, at: instant(seconds)).map(rendered)
    }

    mutating func advance(to seconds: Double) -> [String] {
        var events: [RegionEvent] = []
        monitor.advance(to: instant(seconds), events: &events)
        return events.map(rendered)
    }
}

/// An event as monitor tests compare it: kind, region, seconds after `start`, and whether the segment between two fixes crossed it.
func rendered(_ event: RegionEvent) -> String {
    let seconds = (event.fix.time ?? start) - start
    let time = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    return "\(event.kind.name) \(event.regionID) @\(time)" + (event.crossed ? " crossed" : "")
}
