import GeoWakeCore
import Testing
import RegionIndex
import Regions
import TestSupport

/// `forEachIDInOrder`: every live id once, in the byte order `locate` prints, whether or not the slots are in it already.
@Suite struct RegionIDRankingTests {
    static func visited(_ index: RegionIndex) -> [String] {
        var ids: [String] = []
        index.store.forEachIDInOrder { slot, id in
            ids.append(String(decoding: id, as: UTF8.self))
        }
        return ids
    }

    @Test("Ids come in UTF-8 byte order, from shuffled and from already sorted slots", arguments: [false, true])
    func idsComeInByteOrder(presorted: Bool) throws {
        var random = SeededGenerator(seed: 7)
        let stems = ["a", "ab", "abcdefgh", "abcdefgh1", "abcdefgh2", "b", "é", "Z", "abcdefgi", "r00012"]
        var ids = Set<String>()
        while ids.count < 500 { ids.insert(stems.randomElement(using: &random)! + String(Int.random(in: 0..<1000, using: &random))) }
        ids.formUnion(stems)
        let sorted = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let order = presorted ? sorted : sorted.shuffled(using: &random)
        let index = try RegionIndex(regions: order.enumerated().map { k, id in
            Region.circle(id: id, latitude: 52 + Double(k) * 0.001, longitude: 13.4, radius: 100)
        })
        #expect(Self.visited(index) == sorted)
    }

    @Test func removedRegionsAreLeftOut() throws {
        var index = try RegionIndex(regions: ["c", "a", "b"].map { Region.circle(id: $0, latitude: 52.5, longitude: 13.4, radius: 100) })
        index.remove(index.handle(forID: "a")!)
        #expect(Self.visited(index) == ["b", "c"])
        index.remove(index.handle(forID: "b")!)
        index.remove(index.handle(forID: "c")!)
        #expect(Self.visited(index).isEmpty)
    }
}
