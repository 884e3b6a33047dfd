import Testing
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions
import TestSupport

/// With `--exact`, the monitor's events must be exactly the differences between the sets of regions that
/// contain consecutive fixes, which is what `geowake locate` prints.
@Suite struct RegionMonitorExactTests {
    @Test(arguments: [1, 2] as [UInt64])
    func exactEventsAreTheDifferencesOfConsecutiveContainmentSets(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let regions = ReferenceRegions(RandomScene.regions(count: 200, using: &random))
        let fixes = RandomScene.walk(fixes: 2500, using: &random)
        let expected = RandomScene.containmentDifferences(regions, fixes)
        var monitor = RegionMonitor(regions: regions, configuration: .exact())
        var events: [RegionEvent] = []
        for fix in fixes { monitor.update(with: fix, at: fix.time!, events: &events) }
        #expect(expected.count > 40, "the scene should produce plenty of events")
        #expect(events.map(RandomScene.render) == expected)
    }
}

/// Seeded scenes: regions and a wandering trace over a few kilometres around Berlin.
enum RandomScene {
    static func regions(count: Int, using random: inout SeededGenerator) -> [Region] {
        (0..<count).map { i in
            let center = Berlin.offset(random.uniform(0..<2500), bearing: random.uniform(0..<360))
            let id = "r\(i)"
            if random.uniform(0..<1) < 0.6 { return Berlin.circle(id, radius: random.uniform(20..<600), at: center) }
            let vertices = Int(random.uniform(5..<24))
            return star(id, at: center, vertices: vertices, size: random.uniform(40..<800), using: &random)
        }
    }

    /// A counter-clockwise star-shaped ring, sometimes with a hole.
    static func star(_ id: String, at center: Coordinate, vertices: Int, size: Double,
                     using random: inout SeededGenerator) -> Region {
        var ring = (0..<vertices).map { k in
            Berlin.offset(size * random.uniform(0.4..<1), bearing: 90 - Double(k) * 360 / Double(vertices), from: center)
        }
        ring.append(ring[0])
        var rings = [ring]
        if random.uniform(0..<1) < 0.3 {
            var hole = (0..<4).map { k in Berlin.offset(size * 0.2, bearing: Double(k) * 90, from: center) }
            hole.append(hole[0])
            rings.append(hole)
        }
        return Region(id: id, shape: .polygon(MultiPolygon(polygons: [rings])))
    }

    /// One fix a second, with the occasional jump; the metres per fix change every 50 fixes, cycling through
    /// `speeds` (by default walking and driving, with repeated positions).
    static func walk(fixes: Int, using random: inout SeededGenerator, speeds: [Range<Double>] = [0..<25]) -> [Fix] {
        var position = Berlin.center
        var heading = 0.0
        return (0..<fixes).map { second in
            heading += random.uniform(-25..<25)
            let speed = speeds[second / 50 % speeds.count]
            let step = random.uniform(0..<1) < 0.01 ? random.uniform(300..<1500) : random.uniform(speed)
            position = Berlin.offset(step, bearing: heading, from: position)
            if Geodesy.distance(position, Berlin.center) > 3500 { heading += 180 }
            return Fix(time: instant(Double(second)), coordinate: position, horizontalAccuracy: random.uniform(2..<40))
        }
    }

    static func containmentDifferences(_ regions: some RegionQuerying, _ fixes: [Fix]) -> [String] {
        var previous: [String] = []
        var events: [String] = []
        for fix in fixes {
            var current: [String] = []
            regions.forEachRegion(containing: fix.coordinate) { current.append(regions.attributes(of: $0).id) }
            current.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let seconds = Int(fix.time! - start)
            events += previous.filter { !current.contains($0) }.map { "exit \($0) @\(seconds)" }
            events += current.filter { !previous.contains($0) }.map { "enter \($0) @\(seconds)" }
            previous = current
        }
        return events
    }

    static func render(_ event: RegionEvent) -> String {
        rendered(event)
    }
}

extension RandomNumberGenerator {
    mutating func uniform(_ range: Range<Double>) -> Double { Double.random(in: range, using: &self) }
}
