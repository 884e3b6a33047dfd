import Foundation
import GeoWakeCore
import GRDB
@testable import GeoWakeDaemon
import Testing

/// A restart's regions come back from the store as they were stored: read ahead in batches on a second thread,
/// owner by owner, each with its state, and each owner's regions found by id without a dictionary of their own.
@Suite struct StoredRegionRestoreTests {
    static let owners = (0..<3).map { ClientKey(uid: 1000 + UInt32($0), clientID: "org.example.restore.client-\($0)") }
    /// More than one read-ahead batch in all, and the owners' runs cross the batches' ends.
    static let perOwner = StoredRegionBatch.size * 2 / 3 + 7

    static func store() throws -> (DaemonStore, String) {
        let directory = NSTemporaryDirectory() + "stored-regions-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try DaemonStore(path: directory + "/geowake.sqlite")
        try store.write { transaction in
            var changes: [SharedRegions.Change] = []
            for (o, owner) in owners.enumerated() {
                let ids = (0..<perOwner).map { "r\($0)" }
                let rows = try transaction.insertRegions(ids, features: ids.indices.map { feature(ids[$0], n: $0, owner: o) }, of: owner)
                for (n, (id, row)) in zip(ids, rows).enumerated() {
                    let state: SharedRegions.State = [.unknown, .inside, .outside][n % 3]
                    guard state != .unknown else { continue }
                    changes.append(.init(entry: .init(row: row, owner: owner, regionID: id, state: state,
                                                      since: Timestamp(millisecondsSince1970: Int64(n) * 1000), dwellSent: n % 2 == 0),
                                         event: nil))
                }
            }
            try transaction.saveRegionStates(changes)
        }
        return (store, directory)
    }

    static func feature(_ id: String, n: Int, owner o: Int) -> String {
        "{\"type\":\"Feature\",\"id\":\"\(id)\",\"properties\":{\"radius\":\(50 + n % 7)},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(13 + Double(n) / 1000),\(52 + Double(o) / 10)]}}"
    }

    @Test func insertedRegionsRowsAreTheRowsOfTheirOwnIDAndText() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let owner = ClientKey(uid: 2000, clientID: "org.example.restore.batch")
        let ids = ["b", "a", "c"]
        let features = ids.indices.map { Self.feature(ids[$0], n: $0, owner: 9) }
        let rows = try store.write { transaction in try transaction.insertRegions(ids, features: features, of: owner) }
        #expect(Set(rows).count == ids.count)
        #expect(try store.regionFeatures(rows) == Dictionary(uniqueKeysWithValues: zip(rows, features)))
        var restored: [Int64: String] = [:]
        _ = try store.forEachStoredRegion(of: [owner]) { feature, entry in
            #expect(String(decoding: feature, as: UTF8.self) == features[ids.firstIndex(of: entry.regionID) ?? 0])
            restored[entry.row] = entry.regionID
        }
        #expect(restored == Dictionary(uniqueKeysWithValues: zip(rows, ids)))
    }

    @Test func everyStoredRegionComesBackWithItsStateAndItsOwnersIDs() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try store.regionOwners() == Self.owners)
        var regions = try SharedRegions()
        try regions.restore(owners: store.regionOwners(), reading: store.forEachStoredRegion)
        for owner in Self.owners {
            #expect(regions.count(of: owner) == Self.perOwner)
            #expect(regions.regionIDs(of: owner) == (0..<Self.perOwner).map { "r\($0)" }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            for n in [0, 1, 2, Self.perOwner / 2, Self.perOwner - 1] {
                let found = regions.entry(owner, "r\(n)")
                let entry = try #require(found)
                #expect(entry.owner == owner && entry.regionID == "r\(n)")
                #expect(entry.state == [.unknown, .inside, .outside][n % 3])
                #expect(entry.since == (n % 3 == 0 ? nil : Timestamp(millisecondsSince1970: Int64(n) * 1000)))
                #expect(entry.dwellSent == (n % 3 != 0 && n % 2 == 0))
            }
            let beyond = regions.entry(owner, "r\(Self.perOwner)")
            #expect(beyond == nil)
        }
    }

    @Test func removingMostOfAnOwnersRegionsLeavesTheRestFoundAndCounted() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var regions = try SharedRegions()
        try regions.restore(owners: store.regionOwners(), reading: store.forEachStoredRegion)
        let owner = Self.owners[1], now = Timestamp(secondsSince1970: 1)
        for n in 0..<Self.perOwner where n % 10 != 0 { #expect(regions.remove(owner, "r\(n)", at: now) != nil) }
        let kept = (0..<Self.perOwner).filter { $0 % 10 == 0 }.map { "r\($0)" }
        #expect(regions.count(of: owner) == kept.count)
        #expect(regions.regionIDs(of: owner) == kept.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let (removed, kept10) = (regions.entry(owner, "r1"), regions.entry(owner, "r10"))
        #expect(removed == nil && kept10?.regionID == "r10")
        #expect(regions.count(of: Self.owners[0]) == Self.perOwner)
        regions.removeAll(of: owner, at: now)
        let owners = Set(regions.owners)
        #expect(regions.count(of: owner) == 0 && !owners.contains(owner))
    }

    /// The read-ahead fills batches the restore has done with again.
    @Test func aBatchEmptiedAndReadAgainHoldsOnlyTheRowsReadLast() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try store.read { db in
            let statement = try db.cachedStatement(sql: StoredRegionBatch.query)
            var fresh = StoredRegionBatch(), reused = StoredRegionBatch()
            try fresh.read(statement, owner: Self.owners[1], skipping: [], db)
            try reused.read(statement, owner: Self.owners[0], skipping: [], db)
            try reused.read(statement, owner: Self.owners[2], skipping: [], db)
            reused.removeAll()
            try reused.read(statement, owner: Self.owners[1], skipping: [], db)
            #expect(reused.features == fresh.features && reused.ends == fresh.ends)
            #expect(reused.entries.map(\.row) == fresh.entries.map(\.row) && reused.entries.map(\.regionID) == fresh.entries.map(\.regionID))
            #expect(reused.entries.count == Self.perOwner && reused.entries.allSatisfy { $0.owner == Self.owners[1] })
        }
    }

    @Test func anErrorWhileReadingStopsTheReadAheadAndIsThrown() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            _ = try store.forEachStoredRegion(of: Self.owners) { _, _ in
                seen += 1
                if seen == 10 { throw Stop() }
            }
        }
        #expect(seen == 10)
    }

    /// The read-ahead thread lets go of the store before the restore returns: a daemon stopped right after its start
    /// (as the simulator's crashes do) frees the store's exclusive lock for the next one.
    @Test func theStoreIsFreeToOpenAgainAsSoonAsTheRestoreReturns() throws {
        var (store, directory): (DaemonStore?, String) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for _ in 0..<20 {
            var regions = try SharedRegions()
            try regions.restore(owners: store!.regionOwners(), reading: store!.forEachStoredRegion)
            store = nil
            store = try DaemonStore(path: directory + "/geowake.sqlite")
        }
    }
}
