import Foundation
import GeoWakeCore
import Maps
import Testing
import TestSupport

/// The SVG itself: what is drawn, where, and how the track is thinned.
@Suite struct MapSVGTests {
    static let origin = Coordinate(latitude: 52.52, longitude: 13.40)

    /// A drive east then north-east, one fix a second, with a stretch of poor accuracy.
    static func track(count: Int = 600) -> [Fix] {
        (0..<count).map { i in
            let bearing = i < count / 2 ? 90.0 : 45.0
            let along = Double(i) * 12
            let c = Geodesy.destination(from: origin, bearing: bearing, distance: along)
            return Fix(time: Timestamp(secondsSince1970: 1_700_000_000 + Double(i)), coordinate: c, speed: 12,
                       horizontalAccuracy: (100..<110).contains(i) ? 60 : 5)
        }
    }

    static let regions: [Region] = [
        Region.circle(id: "near-circle", latitude: 52.52, longitude: 13.41, radius: 200),
        Region(id: "holed", shape: .polygon(MultiPolygon(polygons: [[
            [.init(latitude: 52.515, longitude: 13.42), .init(latitude: 52.515, longitude: 13.44),
             .init(latitude: 52.525, longitude: 13.44), .init(latitude: 52.525, longitude: 13.42),
             .init(latitude: 52.515, longitude: 13.42)],
            [.init(latitude: 52.518, longitude: 13.425), .init(latitude: 52.518, longitude: 13.43),
             .init(latitude: 52.522, longitude: 13.43), .init(latitude: 52.522, longitude: 13.425),
             .init(latitude: 52.518, longitude: 13.425)],
        ]]))),
        Region.circle(id: "far-away", latitude: 48.85, longitude: 2.35, radius: 500),
        Region(id: "a-beacon", shape: .beacon(BeaconIdentity(uuid: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))),
    ]

    static func events(_ fixes: [Fix]) -> [RegionEvent] {
        [RegionEvent(kind: .enter, regionID: "near-circle", fix: fixes[40]),
         RegionEvent(kind: .exit, regionID: "near-circle", fix: fixes[80]),
         RegionEvent(kind: .enter, regionID: "holed", fix: fixes[120]),
         RegionEvent(kind: .dwell, regionID: "holed", fix: fixes[200], crossed: false)]
    }

    static func svg(_ fixes: [Fix], _ events: [RegionEvent], regions: [Region] = regions) -> String {
        String(decoding: MapRenderer.render(regions: regions, fixes: fixes, events: events, options: MapOptions()), as: UTF8.self)
    }

    static func attributeValues(_ name: String, in svg: String, of element: String) -> [String] {
        svg.components(separatedBy: "<\(element) ").dropFirst().compactMap { tag in
            guard let start = tag.range(of: " \(name)=\"") ?? (tag.hasPrefix("\(name)=\"") ? tag.range(of: "\(name)=\"") : nil)
            else { return nil }
            let rest = tag[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
    }

    @Test("Every region meeting the view is drawn with its id, entered ones marked; a far region and a beacon are not")
    func visibleRegionsArePresent() {
        let fixes = Self.track()
        let svg = Self.svg(fixes, Self.events(fixes))
        let ids = Self.attributeValues("data-id", in: svg, of: "path")
        #expect(Set(ids) == ["near-circle", "holed"])
        #expect(svg.contains("class=\"region entered\" data-id=\"holed\""))
        #expect(svg.contains("fill-rule=\"evenodd\""))
        // The hole is a second subpath of the same path.
        let holed = Self.attributeValues("d", in: svg, of: "path").first { $0.contains("Z") && $0.filter { $0 == "M" }.count == 2 }
        #expect(holed != nil)
    }

    @Test("Every event is a marker labelled with its kind, region id and UTC time")
    func everyEventIsLabelled() {
        let fixes = Self.track()
        let events = Self.events(fixes)
        let svg = Self.svg(fixes, events)
        #expect(Self.attributeValues("data-kind", in: svg, of: "g") == events.map(\.kind.name))
        for event in events {
            let c = event.fix.time!.civil
            let clock = String(format: "%02d:%02d:%02d", c.hour, c.minute, c.second)
            #expect(svg.contains("<title>\(event.kind.name) \(event.regionID) \(clock)</title>"), "\(event)")
        }
    }

    @Test("Past 400 events, markers of one kind in one 4-pixel cell merge: counts add up and every event keeps its hover label")
    func manyEventsMergeByCell() {
        let fixes = Self.track(count: 600)
        // Enter and exit near-circle at every fix: 1,200 events on fixes 12 m (about 2 px here) apart.
        let events = fixes.flatMap { [RegionEvent(kind: .enter, regionID: "near-circle", fix: $0),
                                      RegionEvent(kind: .exit, regionID: "near-circle", fix: $0)] }
        let svg = Self.svg(fixes, events)
        let kinds = Self.attributeValues("data-kind", in: svg, of: "g")
        #expect(kinds.count < events.count / 2, "\(kinds.count) markers")
        #expect(Set(kinds) == ["enter", "exit"])
        let counts = svg.components(separatedBy: "<g class=\"event").dropFirst().map { tag in
            Self.attributeValues("data-count", in: "<g " + tag, of: "g").first.flatMap { Int($0) } ?? 1
        }
        #expect(counts.reduce(0, +) == events.count)
        for event in events {
            let c = event.fix.time!.civil
            let clock = String(format: "%02d:%02d:%02d", c.hour, c.minute, c.second)
            let label = "\(event.kind.name) near-circle \(clock)"
            #expect(svg.contains("\n\(label)") || svg.contains("<title>\(label)</title>"), "\(event)")
        }
        #expect(!svg.contains("<text fill=\"#"), "no drawn labels past the limit")
    }

    @Test("Known points land where the projection puts them: the centre in the middle, 1 km north and east at 1 km of pixels")
    func knownPointsProjectCorrectly() {
        let projection = MapProjection(center: Self.origin, metresPerPixel: 2, width: 1000, height: 800)
        let centre = projection.project(Self.origin)
        #expect(abs(centre.x - 500) < 1e-9 && abs(centre.y - 400) < 1e-9)
        for (bearing, dx, dy) in [(0.0, 0.0, -500.0), (90.0, 500.0, 0.0), (180.0, 0.0, 500.0), (270.0, -500.0, 0.0)] {
            let p = projection.project(Geodesy.destination(from: Self.origin, bearing: bearing, distance: 1000))
            #expect(abs(p.x - 500 - dx) < 0.5 && abs(p.y - 400 - dy) < 0.5, "bearing \(bearing): \(p)")
        }
    }

    @Test("A geodesic circle is round on the map: every vertex one radius of pixels from the centre")
    func circlesAreRound() {
        let fixes = Self.track()
        let projection = MapRenderer.projection(regions: Self.regions, fixes: fixes, events: [], options: MapOptions())
        let svg = Self.svg(fixes, [])
        let d = Self.attributeValues("d", in: svg, of: "path").first!
        let centre = projection.project(Coordinate(latitude: 52.52, longitude: 13.41))
        let radius = 200 / projection.metresPerPixel
        let vertices = Self.points(d.replacingOccurrences(of: "M", with: " ").replacingOccurrences(of: "L", with: " ")
            .replacingOccurrences(of: "Z", with: ""))
        #expect(vertices.count >= 16)
        for v in vertices {
            let r = ((v.x - centre.x) * (v.x - centre.x) + (v.y - centre.y) * (v.y - centre.y)).squareRoot()
            #expect(abs(r - radius) < 0.2, "\(v) is \(r) px from the centre, not \(radius)")
        }
    }

    @Test("Poor-accuracy fixes get their accuracy circle, good ones none")
    func poorAccuracyCircles() {
        let fixes = Self.track()
        let svg = Self.svg(fixes, [])
        let radii = Self.attributeValues("r", in: svg, of: "circle class=\"accuracy\"")
        #expect(!radii.isEmpty && radii.count <= 10)
        #expect(svg.components(separatedBy: "<title>accuracy 60 m").count - 1 == radii.count)
    }

    @Test("The drawn track keeps its shape: no fix lies more than a pixel from it, with far fewer vertices")
    func thinningKeepsShape() {
        var fixes: [Fix] = []
        var generator = SeededGenerator(seed: 7)
        var c = Self.origin, bearing = 0.0
        for i in 0..<8_000 {
            bearing += Double(generator.next() % 21) - 10
            c = Geodesy.destination(from: c, bearing: bearing, distance: Double(generator.next() % 5))
            fixes.append(Fix(time: Timestamp(secondsSince1970: Double(i)), coordinate: c, speed: 1))
        }
        let projection = MapRenderer.projection(regions: [], fixes: fixes, events: [], options: MapOptions())
        let svg = Self.svg(fixes, [], regions: [])
        let lines = Self.attributeValues("points", in: svg, of: "polyline").map(Self.points)
        let drawn = lines.reduce(0) { $0 + $1.count }
        #expect(drawn > 10 && drawn < fixes.count / 10, "\(drawn) vertices drawn")
        let segments = lines.flatMap { line in zip(line, line.dropFirst()).map { ($0, $1) } }
        for fix in fixes {
            let (x, y) = projection.project(fix.coordinate)
            let p = PixelPoint(x: x, y: y)
            let nearest = segments.lazy.map { TrackThinning.squaredSegmentDistance(p, $0.0, $0.1) }.min() ?? .infinity
            // One pixel, plus the tenth-of-a-pixel rounding of the written coordinates.
            #expect(nearest.squareRoot() <= 1.08, "fix at \(p) is \(nearest.squareRoot()) px from the drawn track")
            if nearest.squareRoot() > 1.08 { break }
        }
    }

    static func points(_ text: String) -> [PixelPoint] {
        text.split(separator: " ").compactMap { pair in
            let xy = pair.split(separator: ",").compactMap { Double($0) }
            return xy.count == 2 ? PixelPoint(x: xy[0], y: xy[1]) : nil
        }
    }
}

