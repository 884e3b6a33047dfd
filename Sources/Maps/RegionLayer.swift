import GeoWakeCore

/// Regions as SVG paths: circles as true geodesic circles (vertices from the WGS84 direct problem),
/// polygons with their holes under fill-rule evenodd. Only regions whose box meets the view are drawn.
struct RegionLayer {
    let projection: MapProjection
    let entered: Set<String>

    /// Writes the drawable regions of `regions` that meet the view; returns how many were drawn.
    func write(_ regions: [Region], to out: inout SVGText) -> Int {
        let view = projection.visibleBounds
        var drawn = 0
        out.raw("<g id=\"regions\" fill-rule=\"evenodd\" stroke-width=\"1.2\">\n")
        for region in regions {
            guard let bounds = Self.bounds(of: region.shape), bounds.intersects(view) else { continue }
            let isEntered = entered.contains(region.id)
            let colour = isEntered ? MapPalette.enteredRegion : MapPalette.otherRegion
            out.raw("<path class=\"region\(isEntered ? " entered" : "")\" data-id=\"")
            out.escaped(region.id)
            out.raw("\" fill=\"\(colour)\" fill-opacity=\"\(isEntered ? "0.3" : "0.15")\" stroke=\"\(colour)\" d=\"")
            writePath(region.shape, to: &out)
            out.raw("\"><title>")
            out.escaped(region.id)
            out.raw(isEntered ? " (entered)" : "")
            out.raw("</title></path>\n")
            drawn += 1
        }
        out.raw("</g>\n")
        return drawn
    }

    private func writePath(_ shape: Region.Shape, to out: inout SVGText) {
        switch shape {
        case .circle(let center, let radius):
            writeRing(Self.circleRing(center: center, radius: radius, metresPerPixel: projection.metresPerPixel), to: &out)
        case .polygon(let multi):
            for polygon in multi.polygons {
                for ring in polygon { writeRing(ring, to: &out) }
            }
        case .beacon:
            break
        }
    }

    /// One closed subpath; vertices closer than half a pixel to the last one written are left out.
    private func writeRing(_ ring: [Coordinate], to out: inout SVGText) {
        var last: PixelPoint?
        for c in ring {
            let (x, y) = projection.project(c)
            let p = PixelPoint(x: x, y: y)
            if let last, TrackThinning.squaredDistance(p, last) < 0.25 { continue }
            out.raw(last == nil ? "M" : "L")
            out.point(p)
            last = p
        }
        out.raw("Z")
    }

    /// Vertices of the geodesic circle, enough that a chord strays less than about a third of a pixel from the arc.
    static func circleRing(center: Coordinate, radius: Double, metresPerPixel: Double) -> [Coordinate] {
        let pixels = radius / metresPerPixel
        // A chord of n vertices strays r(1 - cos(π/n)) ≈ rπ²/2n² from the arc.
        let count = max(16, min(360, Int((Double.pi * (1.5 * pixels).squareRoot()).rounded(.up))))
        return (0..<count).map { Geodesy.destination(from: center, bearing: 360 * Double($0) / Double(count), distance: radius) }
    }

    static func bounds(of shape: Region.Shape) -> GeoBounds? {
        switch shape {
        case .circle(let center, let radius):
            let perDegree = Geodesy.metresPerDegree(atLatitude: center.latitude)
            // A little over the radius: the geodesic circle bulges past the local approximation by parts per million.
            let dLat = radius * 1.001 / perDegree.latitude, dLon = radius * 1.001 / max(perDegree.longitude, 1e-9)
            return GeoBounds(west: center.longitude - dLon, south: center.latitude - dLat,
                             east: center.longitude + dLon, north: center.latitude + dLat)
        case .polygon(let multi):
            var bounds: GeoBounds?
            for polygon in multi.polygons {
                for c in polygon.first ?? [] {
                    if bounds == nil { bounds = GeoBounds(around: c) } else { bounds!.include(c) }
                }
            }
            return bounds
        case .beacon:
            return nil
        }
    }
}
