import Foundation
import GeoWakeProtocol
import GRDB
@testable import GeoWakeDaemon
import Testing

/// The store's typed records write the rows the daemon has always written, so a store written by one version of
/// `geowaked` opens in another: each test writes through the store's methods and reads the rows back with SQL.
@Suite struct StoreRecordTests {
    static func withStore(_ body: (DaemonStore) throws -> Void) throws {
        let (store, directory) = try RawStatementTests.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(store)
    }

    static let client = ClientKey(uid: 1000, clientID: "org.example.records")

    @Test func aNewClientIsOneRowWithTheColumnDefaultsAndRegisteringAgainReplacesOnlyWhatItGives() throws {
        try Self.withStore { store in
            try store.write { transaction in try transaction.insert(ClientRecord(Self.client, launch: "[\"/bin/true\",\"-x\"]", options: nil)) }
            try store.write { transaction in
                try transaction.updateRegistration(of: Self.client, launch: nil, options: "{\"relaunchAfterForceQuit\":false}")
            }
            let row = try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM client") }
            #expect(row.count == 1)
            #expect(row[0]["uid"] as Int64 == 1000 && row[0]["clientID"] as String == Self.client.clientID)
            #expect(row[0]["launch"] as String? == "[\"/bin/true\",\"-x\"]")
            #expect(row[0]["options"] as String? == "{\"relaunchAfterForceQuit\":false}")
            #expect([row[0]["disabled"], row[0]["lastSeq"], row[0]["ackedThrough"], row[0]["dropped"]] as [Int64] == [0, 0, 0, 0])
            #expect(row[0]["regionRules"] as String? == nil)
            #expect(try store.launchCommand(of: Self.client) == ["/bin/true", "-x"])
            #expect(try store.clientExists(Self.client))
            #expect(try !store.clientExists(ClientKey(uid: 1001, clientID: Self.client.clientID)))
        }
    }

    @Test func regionRulesAreTheChosenFieldsAndNoChoiceIsNull() throws {
        try Self.withStore { store in
            try store.write { transaction in
                try transaction.insert(ClientRecord(Self.client, launch: nil, options: nil))
                try transaction.setRegionRules(RegionRules(hysteresis: 20), for: Self.client)
            }
            #expect(try store.queue.read { db in try String.fetchOne(db, sql: "SELECT regionRules FROM client") } == "{\"hysteresis\":20}")
            #expect(try store.read(RegionRules.all) == [Self.client: RegionRules(hysteresis: 20)])
            try store.write { transaction in try transaction.setRegionRules(RegionRules(), for: Self.client) }
            #expect(try store.queue.read { db in try Row.fetchOne(db, sql: "SELECT regionRules FROM client")?["regionRules"] as String? } == nil)
            #expect(try store.read(RegionRules.all).isEmpty)
        }
    }

    @Test func startingAServiceAgainReplacesItsRowMemoryAndAll() throws {
        try Self.withStore { store in
            try store.write { transaction in
                try transaction.insert(ClientRecord(Self.client, launch: nil, options: nil))
                try transaction.save(SubscriptionRecord(Self.client, kind: .standard, options: "{}"))
                try transaction.save(SubscriptionRecord(Self.client, kind: .visits, options: "{\"radius\":50}"))
                try transaction.save(ServiceMemory(client: Self.client, kind: "standard", ["lastSeen": 5]))
            }
            #expect(try store.subscriptions().map { [$0.kind, $0.options, $0.memory] } == [["standard", "{}", "{\"lastSeen\":5}"],
                                                                                         ["visits", "{\"radius\":50}", nil]])
            try store.write { transaction in
                try transaction.save(SubscriptionRecord(Self.client, kind: .standard, options: "{\"distanceFilter\":10}"))
                try transaction.deleteSubscription(.visits, of: Self.client)
            }
            let rows = try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT uid, clientID, kind, options, memory FROM subscription") }
            #expect(rows.count == 1)
            #expect(rows[0]["uid"] as Int64 == 1000 && rows[0]["kind"] as String == "standard")
            #expect(rows[0]["options"] as String == "{\"distanceFilter\":10}" && rows[0]["memory"] as String? == nil)
        }
    }

    @Test func beaconRegionsAndRangingAreKeptPerClientAndUnregisteringOneLeavesTheOthers() throws {
        let other = ClientKey(uid: 1000, clientID: "org.example.other")
        try Self.withStore { store in
            try store.write { transaction in
                for client in [Self.client, other] {
                    try transaction.save(BeaconRegionRecord(uid: client.uid, clientID: client.clientID, regionID: "till", feature: "{}",
                                                            since: 7, lastSeen: 8, beacon: "ibeacon x 1 2 -59 76"))
                    try transaction.save(BeaconRangingRecord(uid: client.uid, clientID: client.clientID, constraintKey: "u/1", uuid: "u",
                                                             major: 1, minor: nil))
                }
                // Saved again: replaced, not added.
                try transaction.save(BeaconRegionRecord(uid: other.uid, clientID: other.clientID, regionID: "till", feature: "{}",
                                                        since: 9, lastSeen: nil, beacon: nil))
            }
            try store.write { transaction in try transaction.deleteBeacons(of: Self.client) }
            let regions = try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM beaconRegion") }
            #expect(regions.map { [$0["clientID"], $0["regionID"]] as [String] } == [[other.clientID, "till"]])
            #expect(regions[0]["since"] as Int64? == 9 && regions[0]["lastSeen"] as Int64? == nil && regions[0]["beacon"] as String? == nil)
            let ranging = try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM beaconRanging") }
            #expect(ranging.map { [$0["clientID"], $0["constraintKey"], $0["uuid"]] as [String] } == [[other.clientID, "u/1", "u"]])
            #expect(ranging[0]["major"] as Int64? == 1 && ranging[0]["minor"] as Int64? == nil)
            try store.write { transaction in try transaction.deleteRanging("u/1", of: other) }
            #expect(try store.beacons().ranging.isEmpty && store.beacons().regions.count == 1)
        }
    }

    @Test func unregisteringDeletesTheClientWithItsSubscriptionsRegionsAndOutboxOnly() throws {
        let other = ClientKey(uid: 1000, clientID: "org.example.other")
        try Self.withStore { store in
            try store.write { transaction in
                for client in [Self.client, other] {
                    try transaction.insert(ClientRecord(client, launch: nil, options: nil))
                    try transaction.save(SubscriptionRecord(client, kind: .significant, options: "{}"))
                    // One of two regions inside: a state row of its own.
                    let rows = try transaction.insertRegions(["home", "work"], features: ["{}", "{}"], of: client)
                    try transaction.saveRegionStates([.init(entry: .init(row: rows[0], owner: client, regionID: "home", state: .inside, since: nil),
                                                            event: nil)])
                    try transaction.appendEvent("{\"n\":1}", for: client, at: 1)
                }
            }
            try store.write { transaction in try transaction.deleteClient(Self.client) }
            // The regions' states go with them.
            #expect(try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM regionState") } == 1)
            for table in ["client", "subscription", "regionBatch", "outbox"] {
                let owners = try store.queue.read { db in try String.fetchAll(db, sql: "SELECT clientID FROM \(table)") }
                #expect(owners == [other.clientID], "\(table)")
            }
            #expect(try store.clientSummaries(of: 1000).map { [$0.clientID, "\($0.pending)", "\($0.lastSeq)"] } == [[other.clientID, "1", "1"]])
        }
    }
}
