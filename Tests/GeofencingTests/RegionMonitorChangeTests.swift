import Foundation
import JSONLines
import Testing
import TestSupport
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

/// Regions added to and removed from a running monitor, and the monitor's state saved and restored.
@Suite struct RegionMonitorChangeTests {
    static let city = TestRegions.city(count: 1500, seed: 31, spanDegrees: 0.08)

    static func trace(seed: UInt64, fixes: Int = 1500) -> [Fix] {
        var random = SeededGenerator(seed: seed)
        return RandomScene.walk(fixes: fixes, using: &random)
    }

    static func feed(_ monitor: inout RegionMonitor<RegionIndex>, _ fixes: ArraySlice<Fix>) -> [RegionEvent] {
        var events: [RegionEvent] = []
        for fix in fixes { monitor.update(with: fix, at: fix.time!, events: &events) }
        return events
    }

    @Test func removingARegionReportedInsideAppendsAFinalExitStampedNowAtTheLastPosition() throws {
        var monitor = RegionMonitor(regions: try RegionIndex(regions: [Berlin.circle("a"), Berlin.circle("b", radius: 300)]))
        let a = try #require(monitor.regions.handle(forID: "a")), b = try #require(monitor.regions.handle(forID: "b"))
        let fix = Fix(time: instant(0), coordinate: Berlin.center)
        #expect(monitor.update(with: fix, at: instant(0)).map(\.kind) == [.enter, .enter])

        var events: [RegionEvent] = []
        monitor.remove(a, at: instant(7), events: &events)
        #expect(events == [RegionEvent(kind: .exit, regionID: "a", fix: Fix(time: instant(7), coordinate: Berlin.center),
                                       reason: .regionRemoved)])
        #expect(monitor.isInside(b))
        #expect(monitor.regions.handle(forID: "a") == nil)
        #expect(monitor.update(with: Fix(time: instant(8), coordinate: Berlin.offset(10)), at: instant(8)).isEmpty)
    }

    @Test func removingARegionOutsideOrAlreadyRemovedReportsNothing() throws {
        var monitor = RegionMonitor(regions: try RegionIndex(regions: [Berlin.circle("a"), Berlin.circle("far", at: Berlin.offset(5000))]))
        let far = try #require(monitor.regions.handle(forID: "far")), a = try #require(monitor.regions.handle(forID: "a"))
        _ = monitor.update(with: Fix(time: instant(0), coordinate: Berlin.center), at: instant(0))
        var events: [RegionEvent] = []
        monitor.remove(far, at: instant(1), events: &events)
        monitor.remove(a, at: instant(2), events: &events)
        monitor.remove(a, at: instant(3), events: &events)
        #expect(events.map(\.regionID) == ["a"])
    }

    /// Both line paths: the shortcut for short ids, field by field for long ones.
    @Test(arguments: ["a", String(repeating: "x", count: 300)])
    func aRemovedRegionsExitLineNamesTheReasonAndOthersDoNot(id: String) {
        var writer = JSONLineWriter()
        let fix = Fix(time: instant(0), coordinate: Berlin.center)
        writer.regionEventLine(RegionEvent(kind: .exit, regionID: id, fix: fix, reason: .regionRemoved))
        writer.regionEventLine(RegionEvent(kind: .exit, regionID: id, fix: fix))
        let lines = String(decoding: writer.bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines[0].hasSuffix(",\"reason\":\"regionRemoved\"}"))
        #expect(!lines[1].contains("reason"))
    }

    @Test func anAddedRegionIsUnknownUntilTheNextFixDecidesIt() throws {
        var monitor = RegionMonitor(regions: try RegionIndex(regions: [Berlin.circle("a")]))
        let a = try #require(monitor.regions.handle(forID: "a"))
        _ = monitor.update(with: Fix(time: instant(0), coordinate: Berlin.center), at: instant(0))
        let b = try monitor.add(Berlin.circle("b", radius: 50))
        let far = try monitor.add(Berlin.circle("far", at: Berlin.offset(5000)))
        #expect(monitor.state(of: b) == .unknown && monitor.state(of: far) == .unknown)
        #expect(monitor.state(of: a) == .inside(since: instant(0)))
        let events = monitor.update(with: Fix(time: instant(1), coordinate: Berlin.offset(5)), at: instant(1))
        #expect(events.map { "\($0.kind.name) \($0.regionID)" } == ["enter b"])
        #expect(monitor.state(of: b) == .inside(since: instant(1)) && monitor.state(of: far) == .outside)
    }

    /// Removals leave every other region's history untouched, so even with hysteresis and debounce the changed
    /// monitor reports, after the change, exactly what a monitor built over the final set from the start does.
    @Test(arguments: [41, 42] as [UInt64])
    func removingRegionsMidTraceMatchesAMonitorBuiltWithoutThem(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let removed = Set(Self.city.indices.filter { _ in random.uniform(0..<1) < 0.3 }.map { Self.city[$0].id })
        let fixes = Self.trace(seed: seed)
        let configuration = RegionMonitorConfiguration(hysteresis: 20, debounce: 5)
        var changed = RegionMonitor(regions: try RegionIndex(regions: Self.city), configuration: configuration)
        var fresh = RegionMonitor(regions: try RegionIndex(regions: Self.city.filter { !removed.contains($0.id) }),
                                  configuration: configuration)
        let cut = fixes.count / 2
        _ = Self.feed(&changed, fixes[..<cut])
        _ = Self.feed(&fresh, fixes[..<cut])
        var finalExits: [RegionEvent] = []
        for id in removed.sorted() {
            changed.remove(try #require(changed.regions.handle(forID: id)), at: fixes[cut - 1].time!, events: &finalExits)
        }
        #expect(finalExits.allSatisfy { $0.kind == .exit && $0.reason == .regionRemoved && removed.contains($0.regionID) })
        let later = Self.feed(&changed, fixes[cut...])
        #expect(!later.isEmpty)
        #expect(later == Self.feed(&fresh, fixes[cut...]))
    }

    /// With exact geometry a region's state is the containment of the last fix, so once one fix has decided
    /// the added regions, the changed monitor and one built over the final set agree event for event.
    @Test(arguments: [51, 52] as [UInt64])
    func addingAndRemovingMidTraceMatchesAMonitorBuiltWithTheFinalSet(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let initial = Self.city.filter { _ in random.uniform(0..<1) < 0.6 }
        let initialIDs = Set(initial.map(\.id))
        let removed = initial.filter { _ in random.uniform(0..<1) < 0.2 }.map(\.id)
        let added = Self.city.filter { !initialIDs.contains($0.id) }
        let final = Self.city.filter { initialIDs.contains($0.id) && !removed.contains($0.id) } + added
        let fixes = Self.trace(seed: seed)

        var changed = RegionMonitor(regions: try RegionIndex(regions: initial), configuration: .exact())
        var fresh = RegionMonitor(regions: try RegionIndex(regions: final), configuration: .exact())
        let cut = fixes.count / 3
        _ = Self.feed(&changed, fixes[..<cut])
        var ignored: [RegionEvent] = []
        // Interleaved, so that handle order and slot order differ from a fresh build's.
        for (i, region) in added.enumerated() {
            try changed.add(region)
            if i < removed.count {
                changed.remove(try #require(changed.regions.handle(forID: removed[i])), at: fixes[cut - 1].time!, events: &ignored)
            }
        }
        for id in removed.dropFirst(added.count) {
            changed.remove(try #require(changed.regions.handle(forID: id)), at: fixes[cut - 1].time!, events: &ignored)
        }
        #expect(changed.regions.count == final.count)
        _ = Self.feed(&changed, fixes[cut...cut])
        _ = Self.feed(&fresh, fixes[...cut])
        let later = Self.feed(&changed, fixes[(cut + 1)...])
        #expect(!later.isEmpty)
        #expect(later == Self.feed(&fresh, fixes[(cut + 1)...]))
    }

    @Test(arguments: [61, 62] as [UInt64])
    func aMonitorRestoredFromASnapshotMidTraceGivesTheSameLaterEvents(seed: UInt64) throws {
        let index = try RegionIndex(regions: Self.city)
        let configuration = RegionMonitorConfiguration(hysteresis: 20, debounce: 5)
        let fixes = Self.trace(seed: seed)
        var through = RegionMonitor(regions: index, configuration: configuration)
        // Cut where the monitor has something to save: inside a region or with a change pending.
        var cut = fixes.count / 2
        _ = Self.feed(&through, fixes[..<cut])
        while through.activeRegionCount == 0 {
            _ = Self.feed(&through, fixes[cut...cut])
            cut += 1
        }
        let saved = try JSONEncoder().encode(through.snapshot())
        let snapshot = try JSONDecoder().decode(RegionMonitorSnapshot.self, from: saved)
        #expect(snapshot == through.snapshot())
        #expect(!snapshot.regions.isEmpty)

        var restored = RegionMonitor(regions: index, configuration: configuration)
        restored.restore(snapshot)
        let later = Self.feed(&through, fixes[cut...])
        #expect(!later.isEmpty)
        #expect(Self.feed(&restored, fixes[cut...]) == later)
    }

    @Test func aSnapshotIgnoresIDsTheIndexDoesNotHave() throws {
        var monitor = RegionMonitor(regions: try RegionIndex(regions: [Berlin.circle("a")]))
        monitor.restore(RegionMonitorSnapshot(regions: [.init(id: "gone", insideSince: instant(0)),
                                                        .init(id: "a", insideSince: instant(0))], lastFix: nil))
        #expect(monitor.snapshot().regions.map(\.id) == ["a"])
    }

    @Test func restoringInsideStatesRepeatsNoEnterAndIgnoresAnotherIndexsHandles() throws {
        let index = try RegionIndex(regions: [Berlin.circle("a", dwell: 60), Berlin.circle("b", radius: 300)])
        let a = try #require(index.handle(forID: "a")), b = try #require(index.handle(forID: "b"))
        let stranger = try #require(try RegionIndex(regions: [Berlin.circle("x")]).handle(forID: "x"))
        var monitor = RegionMonitor(regions: index)
        monitor.restore(inside: [(a, since: instant(0)), (b, since: instant(10)), (stranger, since: instant(0))])
        #expect(monitor.snapshot().regions.map(\.id) == ["a", "b"])
        #expect(monitor.state(of: a) == .inside(since: instant(0)))
        #expect(monitor.update(with: Fix(time: instant(30), coordinate: Berlin.center), at: instant(30)).isEmpty)
        let events = monitor.update(with: Fix(time: instant(61), coordinate: Berlin.offset(150)), at: instant(61))
        #expect(events.map { "\($0.kind.name) \($0.regionID)" } == ["dwell a", "exit a"])
    }
}
