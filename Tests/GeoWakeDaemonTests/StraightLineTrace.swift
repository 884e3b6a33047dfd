import Foundation

/// A GPX trace along the parallel through a circle's centre, each fix given as (seconds, metres east of the centre),
/// and the circle itself as a GeoJSON feature; fixes carry no accuracy, so every fix decides.
struct StraightLineTrace {
    static let latitude = 52.5, longitude = 13.4
    static let start = Date(timeIntervalSince1970: 1_767_225_600)   // 2026-01-01T00:00:00Z
    static let metresPerDegree = 111_320 * cos(latitude * .pi / 180)

    let points: [(seconds: Int, east: Double)]

    var gpx: String {
        let formatter = ISO8601DateFormatter()
        let trackPoints = points.map { point in
            let lon = Self.longitude + point.east / Self.metresPerDegree
            return "<trkpt lat=\"\(Self.latitude)\" lon=\"\(lon)\"><time>\(formatter.string(from: Self.start.addingTimeInterval(Double(point.seconds))))</time></trkpt>"
        }
        return "<gpx><trk><trkseg>" + trackPoints.joined() + "</trkseg></trk></gpx>\n"
    }

    /// Writes the trace into `directory` and returns its path.
    func write(to directory: String, name: String = "line.gpx") throws -> String {
        let path = directory + "/" + name
        try Data(gpx.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The instant `seconds` into the trace as events and `status` print it.
    static func time(_ seconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: start.addingTimeInterval(Double(seconds)))
    }

    /// A circle of `radius` metres round the centre, as a `monitor` request's feature.
    static func circle(_ id: String, radius: Double = 100, properties: [String: Any] = [:]) -> [String: Any] {
        ["type": "Feature", "id": id, "properties": properties.merging(["radius": radius]) { a, _ in a },
         "geometry": ["type": "Point", "coordinates": [longitude, latitude]]]
    }

    /// Writes features as a FeatureCollection file, for `geowake replay --regions`.
    static func regionFile(_ features: [[String: Any]], in directory: String, name: String = "regions.geojson") throws -> String {
        let path = directory + "/" + name
        let data = try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features])
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The region events `geowake replay` prints for a trace and a region file with the given extra options.
    static func replayed(_ trace: String, regions: String, _ options: [String] = []) throws -> [String] {
        try geowakeReplay([trace, "--regions", regions] + options)
    }
}
