import GeoWakeCore

/// Longitude and latitude to SVG pixels: equirectangular with the ellipsoid's radii of curvature at the
/// view's centre latitude, so that east and north metres have the same pixel length there and a circle
/// on the ground is round on the map. Across the few kilometres of a drive the distortion is far below a pixel.
public struct MapProjection: Sendable, Equatable {
    public var center: Coordinate
    public var metresPerPixel: Double
    public var width: Double
    public var height: Double
    private let pixelsPerDegreeLatitude: Double
    private let pixelsPerDegreeLongitude: Double

    public init(center: Coordinate, metresPerPixel: Double, width: Double, height: Double) {
        self.center = center
        self.metresPerPixel = metresPerPixel
        self.width = width
        self.height = height
        let perDegree = Geodesy.metresPerDegree(atLatitude: center.latitude)
        pixelsPerDegreeLatitude = perDegree.latitude / metresPerPixel
        pixelsPerDegreeLongitude = perDegree.longitude / metresPerPixel
    }

    /// The projection that shows `bounds` whole inside `width` × `height` pixels with `margin` pixels free on each side.
    public init(fitting bounds: GeoBounds, width: Double, height: Double, margin: Double) {
        let center = Coordinate(latitude: (bounds.south + bounds.north) / 2,
                                longitude: bounds.west + Geodesy.normalizedLongitudeDelta(bounds.east - bounds.west) / 2)
        let perDegree = Geodesy.metresPerDegree(atLatitude: center.latitude)
        let eastMetres = Geodesy.normalizedLongitudeDelta(bounds.east - bounds.west) * perDegree.longitude
        let northMetres = (bounds.north - bounds.south) * perDegree.latitude
        let usableWidth = max(1, width - 2 * margin), usableHeight = max(1, height - 2 * margin)
        // A single point still gets a view a hundred metres across.
        let scale = max(eastMetres / usableWidth, northMetres / usableHeight, 100 / min(usableWidth, usableHeight))
        self.init(center: center, metresPerPixel: scale, width: width, height: height)
    }

    public func project(_ c: Coordinate) -> (x: Double, y: Double) {
        (width / 2 + Geodesy.normalizedLongitudeDelta(c.longitude - center.longitude) * pixelsPerDegreeLongitude,
         height / 2 - (c.latitude - center.latitude) * pixelsPerDegreeLatitude)
    }

    /// The longitude/latitude box the pixels show, for culling.
    public var visibleBounds: GeoBounds {
        let halfLon = width / 2 / pixelsPerDegreeLongitude, halfLat = height / 2 / pixelsPerDegreeLatitude
        return GeoBounds(west: center.longitude - halfLon, south: center.latitude - halfLat,
                         east: center.longitude + halfLon, north: center.latitude + halfLat)
    }
}

/// A longitude/latitude box; west may exceed east only where it crosses the antimeridian, which no view here does.
public struct GeoBounds: Sendable, Equatable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    public init(around c: Coordinate) {
        self.init(west: c.longitude, south: c.latitude, east: c.longitude, north: c.latitude)
    }

    public mutating func include(_ c: Coordinate) {
        west = min(west, c.longitude)
        east = max(east, c.longitude)
        south = min(south, c.latitude)
        north = max(north, c.latitude)
    }

    public mutating func include(_ b: GeoBounds) {
        west = min(west, b.west)
        east = max(east, b.east)
        south = min(south, b.south)
        north = max(north, b.north)
    }

    public func intersects(_ b: GeoBounds) -> Bool {
        west <= b.east && b.west <= east && south <= b.north && b.south <= north
    }
}
