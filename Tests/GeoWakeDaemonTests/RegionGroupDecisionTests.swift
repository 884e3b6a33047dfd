import GeoWakeCore
import Geofencing
@testable import GeoWakeDaemon
import Testing

/// The fix after a `monitor` decides every region it added, each stored once with its first state: a quiet region the
/// fix lies in (watched and undecided at once) inside since that fix, with no event; a region removed before any fix
/// is not stored at all.
@Suite struct RegionGroupDecisionTests {
    static let owner = ClientKey(uid: 1000, clientID: "org.example.group")

    static func circle(_ id: String, latitude: Double, quiet: Bool = false) -> Region {
        Region(id: SharedRegions.sharedID(owner, id), shape: .circle(center: Coordinate(latitude: latitude, longitude: 13.4), radius: 100),
               notifyOnEntry: !quiet)
    }

    static func fix(at seconds: Double) -> Fix {
        Fix(time: Timestamp(secondsSince1970: seconds), coordinate: Coordinate(latitude: 52.5, longitude: 13.4), horizontalAccuracy: 5,
            mode: .threeD)
    }

    @Test func theFirstFixStoresEachNewRegionOnceAQuietOneItLiesInInsideSinceThatFix() throws {
        var group = try RegionGroup(rules: RegionMonitorConfiguration())
        let regions = [Self.circle("loud", latitude: 52.5), Self.circle("quiet", latitude: 52.5, quiet: true),
                       Self.circle("far", latitude: 52.6), Self.circle("gone", latitude: 52.5)]
        let entries = ["loud", "quiet", "far", "gone"].enumerated().map { n, id in
            SharedRegions.Entry(row: Int64(n + 1), owner: Self.owner, regionID: id, state: .unknown, since: nil)
        }
        let handles = try group.add(validated: regions, entries)
        _ = group.remove(handles[3], at: Timestamp(secondsSince1970: 99))

        let now = Timestamp(secondsSince1970: 100)
        let changes = group.update(with: Self.fix(at: 100), at: now)
        let byID = Dictionary(grouping: changes, by: \.entry.regionID)
        #expect(byID.mapValues(\.count) == ["loud": 1, "quiet": 1, "far": 1])
        #expect(byID["loud"]?.first?.entry.state == .inside)
        let quiet = try #require(byID["quiet"]?.first)
        #expect(quiet.entry.state == .inside && quiet.entry.since == now && quiet.event == nil)
        #expect(byID["far"]?.first?.entry.state == .outside && byID["far"]?.first?.event == nil)
        #expect(group.entries[handles[1]]?.state == .inside)

        let again = group.update(with: Self.fix(at: 101), at: Timestamp(secondsSince1970: 101))
        #expect(again.isEmpty, "decided once, nothing changes at the same place: \(again)")
    }
}
