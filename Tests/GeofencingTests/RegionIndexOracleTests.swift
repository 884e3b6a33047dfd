import Testing
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

/// `RegionIndex` against a brute-force scan over GEOS and Vincenty: the same sets for every point,
/// except points within a millimetre of a boundary, where planar rounding may go either way.
@Suite struct RegionIndexOracleTests {
    static let city = TestRegions.city(count: 4000, seed: 7) + TestRegions.awkwardCircles

    /// Points spread over the city, around the awkward circles, and right at circle boundaries
    /// (a few millimetres to a few decimetres off), where the local-metric shortcut must hand over to Vincenty.
    static func queryPoints(_ regions: [Region], count: Int, seed: UInt64) -> [Coordinate] {
        var rng = SeededGenerator(seed: seed)
        var points: [Coordinate] = []
        let awkward = TestRegions.awkwardCircles
        while points.count < count {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<6:
                points.append(Coordinate(latitude: 52.52 + Double.random(in: -0.17...0.17, using: &rng),
                                         longitude: 13.40 + Double.random(in: -0.32...0.32, using: &rng)))
            case 6..<8:
                guard case let .circle(c, r)? = regions.randomElement(using: &rng)?.shape else { continue }
                let offset = [0.003, -0.003, 0.05, -0.05, 0.4, -0.4].randomElement(using: &rng)!
                points.append(Geodesy.destination(from: c, bearing: Double.random(in: 0..<360, using: &rng), distance: r + offset))
            default:
                guard case let .circle(c, r) = awkward.randomElement(using: &rng)!.shape else { continue }
                points.append(Geodesy.destination(from: c, bearing: Double.random(in: 0..<360, using: &rng),
                                                  distance: r * Double.random(in: 0...1.3, using: &rng)))
            }
        }
        return points
    }

    /// Compares every point; returns the number of points that hit at least one region.
    @discardableResult
    static func compare(_ index: RegionIndex, handles: [RegionHandle], _ regions: [Region], points: [Coordinate]) -> Int {
        let oracle = GEOSOracle(regions)
        var slotToRegion: [RegionSlot: Int] = [:]
        for (i, h) in handles.enumerated() { slotToRegion[h.slot] = i }
        var mismatches: [String] = []
        var pointsWithHits = 0
        for p in points {
            let got = index.regions(containing: p).map { slotToRegion[$0.slot]! }.sorted()
            let want = oracle.regions(containing: p)
            if !want.isEmpty { pointsWithHits += 1 }
            guard got != want else { continue }
            for i in Set(got).symmetricDifference(want) where oracle.boundaryDistance(i, p) >= 0.001 {
                mismatches.append("\(regions[i].id) at \(p.latitude),\(p.longitude): index \(got.contains(i)), oracle \(want.contains(i))")
            }
        }
        #expect(mismatches.count == 0, "first mismatches: \(mismatches.prefix(5))")
        return pointsWithHits
    }

    @Test func sameAnswersAsGEOSOnTwoHundredThousandPoints() throws {
        let index = try RegionIndex(regions: Self.city)
        let handles = Self.city.map { index.handle(forID: $0.id)! }
        let points = Self.queryPoints(Self.city, count: 200_000, seed: 11)
        let hit = Self.compare(index, handles: handles, Self.city, points: points)
        #expect(hit > 50_000, "the points must exercise the index, not only empty space")
    }

    @Test func sameAnswersAsGEOSAfterRandomAddsAndRemoves() throws {
        var index = try RegionIndex(regions: Self.city)
        var live: [String: Region] = Dictionary(uniqueKeysWithValues: Self.city.map { ($0.id, $0) })
        var rng = SeededGenerator(seed: 5)
        let newcomers = TestRegions.city(count: 3000, seed: 99, prefix: "n")
        var next = 0
        for step in 0..<6000 {
            if step % 2 == 0, next < newcomers.count {
                let region = newcomers[next]
                next += 1
                let handle = try index.add(region)
                #expect(index.attributes(of: handle).id == region.id)
                live[region.id] = region
            } else if let id = live.keys.randomElement(using: &rng) {
                index.remove(index.handle(forID: id)!)
                live[id] = nil
                #expect(index.handle(forID: id) == nil)
            }
        }
        let regions = Array(live.values)
        #expect(index.count == regions.count)
        let handles = regions.map { index.handle(forID: $0.id)! }
        Self.compare(index, handles: handles, regions, points: Self.queryPoints(regions, count: 60_000, seed: 12))
    }

    /// Batches as the daemon's `monitor` adds them: some staying in the recent tree or the tail, one big enough to
    /// rebuild the main tree.
    @Test func sameAnswersAsGEOSAfterBatchesOfAdds() throws {
        var index = try RegionIndex(regions: Array(Self.city.prefix(1000)))
        let newcomers = TestRegions.city(count: 3100, seed: 98, prefix: "b")
        var added = 0
        for size in [1, 63, 65, 200, 1500, 1271] {
            let batch = Array(newcomers[added..<(added + size)])
            let handles = try index.add(validated: batch)
            #expect(handles.map { index.attributes(of: $0).id } == batch.map(\.id))
            added += size
        }
        let regions = Array(Self.city.prefix(1000)) + newcomers
        #expect(index.count == regions.count)
        let handles = regions.map { index.handle(forID: $0.id)! }
        Self.compare(index, handles: handles, regions, points: Self.queryPoints(regions, count: 60_000, seed: 13))
    }

    /// Batches that leave three levels of halving size and an unsorted tail beside the main tree and its grid.
    @Test func sameAnswersAsGEOSWithSeveralLevelsOfAddedRegions() throws {
        var index = try RegionIndex(regions: Self.city)
        let newcomers = TestRegions.city(count: 920, seed: 99, prefix: "c")
        var added = 0
        for size in [600, 200, 90, 30] {
            _ = try index.add(validated: Array(newcomers[added..<(added + size)]))
            added += size
        }
        // Sizes count parts (a multipolygon's polygons), so they are a little over the batches'.
        let levels = index.addedLevelSizes
        #expect(levels.count == 3)
        #expect(zip(levels, levels.dropFirst()).allSatisfy { 2 * $1 < $0 })
        let regions = Self.city + newcomers
        let handles = regions.map { index.handle(forID: $0.id)! }
        Self.compare(index, handles: handles, regions, points: Self.queryPoints(regions, count: 30_000, seed: 17))
    }

    /// The daemon's `monitor`s defer the rebuild: the additions stay in levels past twice the main tree, answering
    /// as before, until `rebuildIfDeferred()`; an index that does not defer has rebuilt by then.
    @Test func aDeferredRebuildKeepsTheAdditionsInLevelsWithTheSameAnswersUntilItIsDone() throws {
        var deferring = try RegionIndex(regions: Array(Self.city.prefix(1000)))
        var rebuilding = deferring
        let newcomers = TestRegions.city(count: 3100, seed: 98, prefix: "b")
        var added = 0
        for size in [1, 63, 65, 200, 1500, 1271] {
            _ = try deferring.add(validated: newcomers[added..<(added + size)].map(FeatureDraft.init), deferringRebuild: true)
            _ = try rebuilding.add(validated: Array(newcomers[added..<(added + size)]))
            added += size
        }
        // Read out first: an expectation on an index prints the whole index when it fails.
        let (rebuilt, levelled) = (!rebuilding.hasDeferredRebuild && rebuilding.addedLevelSizes.isEmpty, deferring.addedLevelSizes.reduce(0, +))
        #expect(rebuilt, "past twice the main tree, add rebuilds")
        let waiting = deferring.hasDeferredRebuild
        #expect(waiting && levelled >= 3000)
        let regions = Array(Self.city.prefix(1000)) + newcomers
        let points = Self.queryPoints(regions, count: 30_000, seed: 19)
        Self.compare(deferring, handles: regions.map { deferring.handle(forID: $0.id)! }, regions, points: points)

        deferring.rebuildIfDeferred()
        let done = !deferring.hasDeferredRebuild && deferring.addedLevelSizes.isEmpty
        #expect(done)
        Self.compare(deferring, handles: regions.map { deferring.handle(forID: $0.id)! }, regions, points: points)
    }

    /// Deferring lets the levels grow to eight times the main tree, no further: a burst that goes on rebuilds anyway.
    @Test func aDeferredRebuildHappensAnywayPastEightTimesTheMainTree() throws {
        var index = try RegionIndex(regions: Array(Self.city.prefix(200)))
        let newcomers = TestRegions.city(count: 1700, seed: 97, prefix: "d")
        _ = try index.add(validated: newcomers.prefix(1500).map(FeatureDraft.init), deferringRebuild: true)
        let waiting = index.hasDeferredRebuild
        #expect(waiting, "1,500 added to 200: past twice, within eight times")
        _ = try index.add(validated: newcomers.dropFirst(1500).map(FeatureDraft.init), deferringRebuild: true)
        let rebuilt = !index.hasDeferredRebuild && index.addedLevelSizes.isEmpty
        #expect(rebuilt, "1,700 added to 200: past eight times")
    }

    @Test func removedIDsCanBeAddedAgainWithANewHandle() throws {
        var index = try RegionIndex(regions: Array(Self.city.prefix(10)))
        let old = index.handle(forID: "r3")!
        index.remove(old)
        let new = try index.add(Self.city[3])
        #expect(new != old)
        #expect(index.region(old) == nil)
        #expect(index.region(new) == Self.city[3])
    }
}
