/// One region as a reader or `Region` hands it over, flat, before it is validated and joins a store.
/// The loader reuses one draft for every feature, so its arrays keep their capacity.
struct FeatureDraft {
    enum Geometry: Equatable {
        case none
        case point
        case polygon
        case multiPolygon
    }

    var id: [UInt8] = []
    var hasID = false
    var geometry: Geometry = .none
    /// Longitude, latitude pairs of every position, rings one after the other.
    var coordinates: [Double] = []
    /// Position count at the end of each ring.
    var ringEnds: [Int] = []
    /// Ring count at the end of each polygon (part).
    var polygonEnds: [Int] = []
    var radius: Double?
    var isBeacon = false
    var uuid: String?
    var major: UInt16?
    var minor: UInt16?
    var notifyOnEntry = true
    var notifyOnExit = true
    var dwell: Double?

    mutating func reset() {
        id.removeAll(keepingCapacity: true)
        hasID = false
        geometry = .none
        coordinates.removeAll(keepingCapacity: true)
        ringEnds.removeAll(keepingCapacity: true)
        polygonEnds.removeAll(keepingCapacity: true)
        radius = nil
        isBeacon = false
        uuid = nil
        major = nil
        minor = nil
        notifyOnEntry = true
        notifyOnExit = true
        dwell = nil
    }

    /// Flattens a `Region` value into the draft.
    init(_ region: Region) {
        id = Array(region.id.utf8)
        hasID = true
        notifyOnEntry = region.notifyOnEntry
        notifyOnExit = region.notifyOnExit
        dwell = region.dwell
        switch region.shape {
        case let .circle(center, radius):
            geometry = .point
            coordinates = [center.longitude, center.latitude]
            self.radius = radius
        case let .polygon(multiPolygon):
            geometry = .multiPolygon
            for polygon in multiPolygon.polygons {
                for ring in polygon {
                    for c in ring { coordinates.append(c.longitude); coordinates.append(c.latitude) }
                    ringEnds.append(coordinates.count / 2)
                }
                polygonEnds.append(ringEnds.count)
            }
        case let .beacon(identity):
            isBeacon = true
            uuid = identity.uuid
            major = identity.major
            minor = identity.minor
        }
    }

    init() {}
}
