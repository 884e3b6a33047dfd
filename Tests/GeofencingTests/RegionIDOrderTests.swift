import GeoWakeCore
import Testing
import RegionIndex
import Regions
import TestSupport

/// `sortByID`: the byte order `locate` prints, for the short lists of one fix and the long ones of a dense spot.
@Suite struct RegionIDOrderTests {
    /// Circles all covering one point, with ids that share prefixes, differ only in length or in bytes past 8.
    static func overlapping(_ ids: [String]) throws -> (RegionIndex, [RegionHandle]) {
        let index = try RegionIndex(regions: ids.map { Region.circle(id: $0, latitude: 52.5, longitude: 13.4, radius: 100) })
        return (index, index.regions(containing: Coordinate(latitude: 52.5, longitude: 13.4)))
    }

    @Test("Handles sort into the ids' UTF-8 byte order, for lists under and over the insertion-sort limit",
          arguments: [5, 16, 17, 300])
    func sortsByIDBytes(count: Int) throws {
        var random = SeededGenerator(seed: UInt64(count))
        let stems = ["a", "ab", "abcdefgh", "abcdefgh1", "abcdefgh2", "b", "é", "Z", "abcdefgi"]
        var ids = Set<String>()
        while ids.count < count {
            ids.insert(stems.randomElement(using: &random)! + String(Int.random(in: 0..<1000, using: &random)))
            if ids.count < count { ids.insert(stems.randomElement(using: &random)!) }
        }
        var (index, handles) = try Self.overlapping(ids.shuffled(using: &random))
        #expect(handles.count == count)
        index.store.sortByID(&handles)
        let sorted = handles.map { index.store.id($0) }
        #expect(sorted == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }
}
