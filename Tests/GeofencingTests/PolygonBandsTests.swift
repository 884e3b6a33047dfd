import Testing
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

@Suite struct PolygonBandsTests {
    /// A bulk load computes bands in chunks on every core; the store must be the one a single pass makes.
    @Test func bandsComputedInParallelChunksEqualBandsComputedInOnePass() throws {
        var rng = SeededGenerator(seed: 67)
        let ring = TestRegions.star(center: Coordinate(latitude: 52.5, longitude: 13.4), radius: 3000, vertices: 500, rng: &rng)
        let large = Region(id: "large", shape: .polygon(MultiPolygon(polygons: [[ring]])))
        let regions = TestRegions.city(count: 3000, seed: 61) + [large]
        let store = try RegionIndex(regions: regions).store
        #expect(store.partHeaders.count > 1000 && store.rasters.count == 1)
        var chunked = store
        chunked.partHeaders.removeAll()
        (chunked.bandEdgeStart, chunked.bandEdges, chunked.rasters, chunked.rasterCells) = ([], [], [], [])
        chunked.appendMissingBands(partsPerChunk: 97)
        #expect(chunked.partHeaders.count == store.partHeaders.count)
        for part in 0..<store.partHeaders.count {
            let a = store.partHeaders[part], b = chunked.partHeaders[part]
            #expect(a.minY == b.minY && a.scale == b.scale && a.firstPosition == b.firstPosition && a.slot == b.slot
                    && a.bandCount == b.bandCount && a.raster == b.raster && a.words == b.words, "part \(part)")
        }
        #expect(chunked.bandEdgeStart == store.bandEdgeStart && chunked.bandEdges == store.bandEdges)
        #expect(chunked.rasterCells == store.rasterCells)
    }
}
