import GeoWakeCore

/// Draws regions, a track and its events as an SVG image or a self-contained HTML page: a pure function
/// of its inputs, so the same replay always gives the same bytes.
public enum MapRenderer {
    public static let margin = 40.0

    public static func render(regions: [Region], fixes: [Fix], events: [RegionEvent], options: MapOptions) -> [UInt8] {
        let projection = projection(regions: regions, fixes: fixes, events: events, options: options)
        var out = SVGText(reservingCapacity: 1 << 20)
        if options.format == .html { MapPage.writeHead(title: options.title, to: &out) }
        writeSVG(regions: regions, fixes: fixes, events: events, projection: projection, options: options, to: &out)
        if options.format == .html { MapPage.writeTail(to: &out) }
        return out.bytes
    }

    /// The view: the track and its events when there is a track, else every region with a geometry.
    public static func projection(regions: [Region], fixes: [Fix], events: [RegionEvent], options: MapOptions) -> MapProjection {
        var bounds: GeoBounds?
        func include(_ b: GeoBounds) { if bounds == nil { bounds = b } else { bounds!.include(b) } }
        for fix in fixes { include(GeoBounds(around: fix.coordinate)) }
        for event in events { include(GeoBounds(around: event.fix.coordinate)) }
        if bounds == nil {
            for region in regions { if let b = RegionLayer.bounds(of: region.shape) { include(b) } }
        }
        return MapProjection(fitting: bounds ?? GeoBounds(around: Coordinate(latitude: 0, longitude: 0)),
                             width: options.width, height: options.height, margin: margin)
    }

    static func writeSVG(regions: [Region], fixes: [Fix], events: [RegionEvent], projection: MapProjection,
                         options: MapOptions, to out: inout SVGText) {
        out.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"map\" width=\"")
        out.number(options.width)
        out.raw("\" height=\"")
        out.number(options.height)
        out.raw("\" viewBox=\"0 0 ")
        out.number(options.width)
        out.raw(" ")
        out.number(options.height)
        out.raw("\" font-family=\"sans-serif\">\n<title>")
        out.escaped(options.title)
        out.raw("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#f7f7f2\"/>\n")
        let entered = Set(events.lazy.filter { $0.kind == .enter }.map(\.regionID))
        _ = RegionLayer(projection: projection, entered: entered).write(regions, to: &out)
        var scale = TrackLayer.Scale(low: 0, high: 0)
        if !fixes.isEmpty {
            scale = TrackLayer(projection: projection, options: options).write(fixes, to: &out).scale
        }
        EventLayer(projection: projection).write(events, to: &out)
        let decorations = MapDecorations(projection: projection, options: options)
        decorations.writeScaleBar(to: &out)
        decorations.writeNorthArrow(to: &out)
        decorations.writeLegend(scale: scale, hasTrack: !fixes.isEmpty, to: &out)
        out.raw("</svg>\n")
    }
}
