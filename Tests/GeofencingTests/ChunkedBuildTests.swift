import Testing
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

/// Index build steps split large inputs into chunks for the cores; at the benchmark's sizes they always
/// do, at the tests' sizes only when the chunks are made small. Whatever the chunking, the result must be
/// the one a single pass makes.
@Suite struct ChunkedBuildTests {
    /// With circles split at the antimeridian, which list two items.
    static let store = try! RegionIndex(regions: TestRegions.city(count: 3000, seed: 83) + TestRegions.awkwardCircles).store
    /// Within one city, where polygon parts' entries get rasters.
    static let city = try! RegionIndex(regions: TestRegions.city(count: 3000, seed: 83)).store

    @Test func indexItemsListedInChunksAreThoseListedInOnePass() {
        let one = Self.store.indexItems(slotsPerChunk: Self.store.slotCount)
        let chunked = Self.store.indexItems(slotsPerChunk: 97)
        #expect(one.slots.count > Self.store.slotCount)
        #expect(chunked.boxes == one.boxes && chunked.slots == one.slots && chunked.parts == one.parts)
    }

    @Test func cellChunksCoverEveryCellOnceAndShareTheEntriesEvenly() {
        var rng = SeededGenerator(seed: 97)
        // A crowded city of cells among empty ones, as regions make them.
        let sizes = (0..<5000).map { cell in (2000..<2100).contains(cell) ? Int.random(in: 500...900, using: &rng) : Int.random(in: 0...2, using: &rng) }
        var cellStart: [UInt32] = [0]
        for size in sizes { cellStart.append(cellStart.last! + UInt32(size)) }
        let total = Int(cellStart.last!)
        let chunks = CellGrid.cellChunks(cellStart, entries: chunkRanges(of: 0..<total, atLeast: 16_384))
        #expect(chunks.count == 4)
        #expect(chunks.first?.lowerBound == 0 && chunks.last?.upperBound == sizes.count)
        #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound && !$0.isEmpty })
        for chunk in chunks {
            let entries = Int(cellStart[chunk.upperBound] - cellStart[chunk.lowerBound])
            #expect(abs(entries - total / chunks.count) <= 900, "\(chunk): \(entries) of \(total)")
        }
        let lone = CellGrid.cellChunks([0, 0, 0], entries: chunkRanges(of: 0..<0, atLeast: 16_384))
        #expect(lone == [0..<2])
    }

    @Test func gathersInChunksAreGathersInOnePass() {
        var rng = SeededGenerator(seed: 89)
        let values = (0..<4 * 5000).map { _ in Double.random(in: -180...180, using: &rng) }
        let indices = (0..<7001).map { _ in UInt32.random(in: 0..<5000, using: &rng) }
        let want = indices.flatMap { values[4 * Int($0)..<4 * Int($0) + 4] }
        #expect(gather(values, at: indices[...], width: 4, chunkSize: 3000) == want)
        #expect(gather(values, at: indices[...], width: 4, chunkSize: 100_000) == want)
    }

    @Test func gridsPlacedInChunksAreGridsPlacedInOnePass() {
        let store = Self.city
        let (boxes, slots, parts) = store.indexItems()
        let shapes = (0..<slots.count).map { store.shapeReference(ofSlot: slots[$0], part: Int(parts[$0])).rawValue }
        func grid(itemsPerChunk: Int) -> CellGrid {
            CellGrid(boxes: boxes, payloads: shapes, tags: slots.map(\.rawValue), itemsPerChunk: itemsPerChunk) { shape, frames, entries in
                store.classify(shape: ShapeReference(rawValue: shape), frames: frames, entries: entries)
            }
        }
        let one = grid(itemsPerChunk: slots.count), four = grid(itemsPerChunk: slots.count / 4)
        #expect(one.entries.count > slots.count)
        #expect(one.entries.contains { $0.holdsCircle } && one.entries.contains { !$0.holdsCircle && $0.raster != .undecided })
        #expect(four.cellStart == one.cellStart && four.entryBoxes == one.entryBoxes)
        #expect(four.entries == one.entries)
    }

    @Test func shapesLaidOutInHalvesAreLaidOutAsInOnePass() throws {
        // Both storages, large parts among the small ones, and circles split at the antimeridian.
        let regions = FixedPointStorageTests.mixed + TestRegions.awkwardCircles
        var one = try RegionIndex(regions: regions).store, halves = one
        var rng = SeededGenerator(seed: 97)
        let order = (0..<UInt32(one.slotCount)).shuffled(using: &rng).map(RegionSlot.init)
        one.reorderShapes(order, partsPerChunk: one.slotCount)
        halves.reorderShapes(order, partsPerChunk: 97)
        #expect(one.coordinates.count > 1000 && one.fixedCoordinates.count > 1000 && one.rasters.count > 10)
        #expect(halves.coordinates == one.coordinates && halves.fixedCoordinates == one.fixedCoordinates)
        #expect(halves.partFirstStored == one.partFirstStored && halves.shapeIndex == one.shapeIndex)
        #expect(halves.circles.withUnsafeBufferPointer(Array.init) == one.circles.withUnsafeBufferPointer(Array.init))
        #expect(halves.partHeaders.withUnsafeBufferPointer(Array.init) == one.partHeaders.withUnsafeBufferPointer(Array.init))
        #expect(halves.bandEdges == one.bandEdges && halves.rasterCells == one.rasterCells)
    }
}
