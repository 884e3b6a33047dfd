import Testing
@testable import Geofencing

/// Point queries for many points at once (`forEachRegion(containingEach:)`) against a scan of every region
/// with `contains`, which takes no grid, no staging and no batch.
@Suite struct RegionBatchQueryTests {
    /// A pile of 100 circles round one spot: more candidates than one point's stage holds.
    static let pile: [Region] = (0..<100).map {
        Region.circle(id: "pile\($0)", latitude: 52.5, longitude: 13.3, radius: 50 + Double($0))
    }

    static func points(_ regions: [Region], count: Int, seed: UInt64) -> [Coordinate] {
        var points = RegionIndexOracleTests.queryPoints(regions, count: count, seed: seed)
        // Into the pile, off the grid, and not positions at all, spread through the batches.
        for k in stride(from: 0, to: points.count, by: 37) {
            points[k] = Geodesy.destination(from: Coordinate(latitude: 52.5, longitude: 13.3), bearing: Double(k), distance: Double(k % 160))
        }
        let odd = [Coordinate(latitude: .nan, longitude: 13.4), Coordinate(latitude: 91, longitude: 13.4),
                   Coordinate(latitude: -40, longitude: 100), Coordinate(latitude: 52.52, longitude: 373.4)]
        for (k, p) in odd.enumerated() { points[101 * k + 3] = p }
        return points
    }

    /// Per point, the handles the batch query reports; also checks that a point's hits come together.
    static func batchAnswers(_ index: RegionIndex, _ points: [Coordinate]) -> [[RegionHandle]] {
        var answers = [[RegionHandle]](repeating: [], count: points.count)
        var last = 0
        points.withUnsafeBufferPointer { points in
            index.forEachRegion(containingEach: points) { i, handle in
                #expect(i >= last, "hits of point \(i) after those of point \(last)")
                last = i
                answers[i].append(handle)
            }
        }
        return answers.map { $0.sorted() }
    }

    static func expectScanAnswers(_ index: RegionIndex, _ handles: [RegionHandle], _ points: [Coordinate]) -> Int {
        let got = batchAnswers(index, points)
        var mismatches: [String] = [], hits = 0
        for (i, p) in points.enumerated() {
            let want = handles.filter { index.contains($0, p) }.sorted()
            hits += want.count
            if got[i] != want { mismatches.append("point \(i) \(p): batch \(got[i].count), scan \(want.count)") }
            if index.regions(containing: p) != want { mismatches.append("point \(i) \(p): single query differs") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        return hits
    }

    @Test func batchAnswersEqualAScanOfEveryRegion() throws {
        let regions = TestRegions.city(count: 1500, seed: 41) + TestRegions.awkwardCircles + Self.pile
        let index = try RegionIndex(regions: regions)
        let handles = regions.map { index.handle(forID: $0.id)! }
        let hits = Self.expectScanAnswers(index, handles, Self.points(regions, count: 3000, seed: 43))
        #expect(hits > 3000, "the points must reach regions, the pile included")
    }

    @Test func batchAnswersIncludeRegionsAddedSinceTheBuildAndSkipRemovedOnes() throws {
        var index = try RegionIndex(regions: TestRegions.city(count: 1500, seed: 41) + Self.pile)
        // Enough additions for the second tree and the unsorted tail, too few for a rebuild.
        let added = TestRegions.city(count: 300, seed: 47, prefix: "n")
        for region in added { try index.add(region) }
        for k in stride(from: 0, to: 1500, by: 3) { index.remove(index.handle(forID: "r\(k)")!) }
        for k in 0..<50 { index.remove(index.handle(forID: "pile\(2 * k)")!) }
        let live = (0..<index.store.slotCount).map { RegionHandle(rawValue: UInt32($0)) }.filter { index.region($0) != nil }
        let hits = Self.expectScanAnswers(index, live, Self.points(added, count: 2000, seed: 53))
        #expect(hits > 1000)
    }

    @Test func cacheLineArrayStartsOnALineAndCopiesOnWrite() {
        var a = AlignedArray<PartHeader>()
        for k in 0..<100 { a.append(PartHeader(minY: Double(k), scale: 1, firstPosition: 0, slot: UInt32(k), count: 8, raster: -1)) }
        #expect(MemoryLayout<PartHeader>.stride == 64)
        a.withUnsafeBufferPointer { #expect(Int(bitPattern: $0.baseAddress) % 64 == 0) }
        var b = a
        b[7].slot = 1000
        b.append(a[0])
        #expect(a[7].slot == 7 && b[7].slot == 1000 && a.count == 100 && b.count == 101)
        b.shrinkToFit()
        #expect(b.capacity == 101 && b[100].minY == 0)
    }
}
