import GeoWakeCore
@testable import GeoWakeDaemon
import Testing

/// Region state changes are written a run of consecutive rows with one state at a time, each row with its last change.
@Suite struct RegionStateRunsTests {
    static let owner = ClientKey(uid: 1000, clientID: "org.example.runs")

    static func change(_ row: Int64, _ state: SharedRegions.State, since: Int64 = 5, dwellSent: Bool = false) -> SharedRegions.Change {
        .init(entry: .init(row: row, owner: owner, regionID: "r\(row)", state: state, since: Timestamp(millisecondsSince1970: since),
                           dwellSent: dwellSent), event: nil)
    }

    static func described(_ runs: RegionStateRuns) -> [String] {
        runs.map { "\($0.rows.lowerBound)-\($0.rows.upperBound) \($0.entry.state) \($0.entry.since!.millisecondsSince1970) \($0.entry.dwellSent)" }
    }

    @Test func consecutiveRowsInAnyOrderWithOneStateAreOneRun() {
        let changes = [7, 3, 5, 4, 6].map { Self.change($0, .outside) }
        #expect(Self.described(RegionStateRuns(changes)) == ["3-7 outside 5 false"])
    }

    @Test func aGapADifferentStateSinceOrDwellEndsARun() {
        let changes = [Self.change(1, .outside), Self.change(2, .outside), Self.change(4, .outside), Self.change(5, .inside),
                       Self.change(6, .inside, since: 9), Self.change(7, .inside, since: 9, dwellSent: true)]
        #expect(Self.described(RegionStateRuns(changes)) == ["1-2 outside 5 false", "4-4 outside 5 false", "5-5 inside 5 false",
                                                             "6-6 inside 9 false", "7-7 inside 9 true"])
    }

    @Test func aRowChangedTwiceKeepsItsLastChange() {
        let changes = [Self.change(2, .inside), Self.change(1, .outside), Self.change(2, .inside, dwellSent: true), Self.change(3, .outside)]
        #expect(Self.described(RegionStateRuns(changes)) == ["1-1 outside 5 false", "2-2 inside 5 true", "3-3 outside 5 false"])
    }
}
