import GeoWakeCore
import Testing
@testable import RegionIndex
import Regions
import TestSupport

/// A point query reports its regions in handle order (grid cells list their entries by slot, and the candidates
/// tested exactly are merged in), so that the region monitor's sort of a fix's hits is one look at each.
@Suite struct PointQueryOrderTests {
    static func probes(count: Int, seed: UInt64) -> [Coordinate] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            Coordinate(latitude: 52.52 + Double.random(in: -0.005...0.005, using: &rng),
                       longitude: 13.40 + Double.random(in: -0.01...0.01, using: &rng))
        }
    }

    static func hits(_ index: RegionIndex, _ point: Coordinate) -> [RegionHandle] {
        var hits: [RegionHandle] = []
        index.forEachRegion(containing: point) { hits.append($0) }
        return hits
    }

    @Test("A built index reports every point's regions in handle order, each once, the very regions contains() finds")
    func builtIndexReportsHitsInHandleOrder() throws {
        let index = try RegionIndex(regions: TestRegions.city(count: 3000, seed: 83, spanDegrees: 0.02))
        var several = 0
        for point in Self.probes(count: 500, seed: 5) {
            let hits = Self.hits(index, point)
            if hits.count > 2 { several += 1 }
            #expect(zip(hits, hits.dropFirst()).allSatisfy { $0 < $1 }, "\(point)")
            #expect(hits == index.store.handles.filter { index.contains($0, point) })
        }
        #expect(several > 250, "most probes lie in several overlapping regions")
    }

    @Test("Regions added after the build (in levels and the unsorted tail) are merged into handle order too")
    func addedRegionsAreMergedInOrder() throws {
        var index = try RegionIndex(regions: TestRegions.city(count: 2000, seed: 83, spanDegrees: 0.02))
        for region in TestRegions.city(count: 300, seed: 84, spanDegrees: 0.02, prefix: "added") { try index.add(region) }
        #expect(!index.addedLevelSizes.isEmpty)
        var withAdded = 0
        for point in Self.probes(count: 500, seed: 6) {
            let hits = Self.hits(index, point)
            if hits.contains(where: { index.store.id($0).hasPrefix("added") }) && hits.count > 1 { withAdded += 1 }
            #expect(zip(hits, hits.dropFirst()).allSatisfy { $0 < $1 }, "\(point)")
            #expect(hits == index.store.handles.filter { index.contains($0, point) })
        }
        #expect(withAdded > 100, "many points lie in added regions and others")
    }
}
