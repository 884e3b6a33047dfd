import GeoWakeCore

/// One region as a reader or `Region` hands it over, flat, before it is validated and joins a store.
/// The loader reuses one draft for every feature, so its arrays keep their capacity.
package struct FeatureDraft {
    package enum Geometry: Equatable {
        case none
        case point
        case polygon
        case multiPolygon
    }

    package var id: [UInt8] = []
    package var hasID = false
    package var geometry: Geometry = .none
    /// Longitude, latitude pairs of every position, rings one after the other.
    package var coordinates: [Double] = []
    /// Position count at the end of each ring.
    package var ringEnds: [Int] = []
    /// Ring count at the end of each polygon (part).
    package var polygonEnds: [Int] = []
    package var radius: Double?
    package var isBeacon = false
    package var uuid: String?
    package var major: UInt16?
    package var minor: UInt16?
    package var notifyOnEntry = true
    package var notifyOnExit = true
    package var dwell: Double?

    package mutating func reset() {
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
    package init(_ region: Region) {
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

    package init() {}
}
