import Foundation
import GeoWakeCore
@testable import GeoWakeDaemon
import GeoWakeProtocol
import Testing
import Traces

/// The daemon's step for a fix, with no daemon around it: no store, no socket, no clock but the times given. Over a
/// trace it gives a client what `geowake replay` prints, and the same fixes give the same outcomes.
@Suite struct FixStepTests {
    static let trace = DaemonProcess.root + "/traces/berlin-drive.nmea"
    static let regionFile = DaemonProcess.root + "/regions/berlin-1k.geojson"
    static let client = ClientKey(uid: 1000, clientID: "org.example.step")

    /// A step with the client's regions (hysteresis 25 m, debounce 4 s) and a significant-change service.
    static func step() throws -> FixStep {
        var step = FixStep(health: SourceHealth(limits: .init()), regions: try SharedRegions())
        try step.regions.choose(RegionRules(hysteresis: 25, debounce: 4), for: client, at: Timestamp(secondsSince1970: 0))
        let regions = try SharedRegions.regions(fromFeatureCollection: Array(try Data(contentsOf: URL(fileURLWithPath: regionFile))))
        try step.regions.add(validated: regions, rows: regions.indices.map(Int64.init), owner: client)
        #expect(step.services.start(try ServiceConfiguration(.significant, options: ["distance": 300, "interval": 60]), for: client))
        return step
    }

    /// Every fix of the trace through `step`, as `DaemonCore.take` takes them; the client's events in order.
    static func events(_ step: inout FixStep, fixes: [Fix]) -> [String] {
        var events: [String] = []
        for (index, fix) in fixes.enumerated() {
            let outcome = step.take(fix, at: fix.time!, monotonic: Double(index), ended: false)
            events += outcome.events.filter { $0.client == client }.map(\.line)
        }
        return events
    }

    static func fixes() throws -> [Fix] {
        var fixes: [Fix] = []
        _ = try TraceFile.read(trace) { fixes.append($0) }
        return fixes.filter { $0.time != nil }
    }

    @Test func aClientGetsWhatGeowakeReplayPrintsFromTheStepAlone() throws {
        var step = try Self.step()
        let events = Self.events(&step, fixes: try Self.fixes())
        let taken = canonical(events.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let significant = taken.filter { $0.contains(#""event":"significant""#) }
        let regional = taken.filter { !$0.contains(#""event":"significant""#) }
        #expect(!significant.isEmpty && regional.contains { $0.contains(#""event":"enter""#) })
        // `replay` runs one service at a time: the step's events of each service against its own run.
        let replayedRegions = try geowakeReplay(["--regions", Self.regionFile, "--hysteresis", "25", "--debounce", "4", Self.trace])
        let replayedSignificant = try geowakeReplay(["--service", "significant", "--significant-distance", "300",
                                                     "--significant-interval", "60", Self.trace])
        #expect(firstDifference(regional, replayedRegions) == nil)
        #expect(firstDifference(significant, replayedSignificant) == nil)
    }

    @Test func theSameFixesGiveTheSameOutcomesAndTheStepKeepsTheLastFix() throws {
        let fixes = try Self.fixes()
        var first = try Self.step(), second = try Self.step()
        #expect(Self.events(&first, fixes: fixes) == Self.events(&second, fixes: fixes))
        #expect(first.lastFix == fixes.last)
    }

    @Test func aTracesLastFixTellsEverySubscribedClientItEnded() throws {
        var step = try Self.step()
        let fix = try #require(try Self.fixes().first)
        let outcome = step.take(fix, at: fix.time!, monotonic: 0, ended: true)
        let ended = outcome.events.filter { $0.line.contains(#""state":"ended""#) }
        #expect(ended.map(\.client) == [Self.client])
        #expect(ended.allSatisfy { $0.launchReason == nil }, "the end launches no one")
    }

    @Test func aDebouncedEntryFallsDueByTheTimerAloneAndIsSavedWithItsEvent() throws {
        var step = FixStep(health: SourceHealth(limits: .init()), regions: try SharedRegions())
        try step.regions.choose(RegionRules(debounce: 4), for: Self.client, at: Timestamp(secondsSince1970: 0))
        let circle = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"depot","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"radius":100}}]}"#
        try step.regions.add(validated: SharedRegions.regions(fromFeatureCollection: Array(circle.utf8)), rows: [7], owner: Self.client)
        let start = Timestamp(secondsSince1970: 1_700_000_000)
        let fix = Fix(time: start, coordinate: Coordinate(latitude: 52.5, longitude: 13.4), horizontalAccuracy: 5, mode: .threeD)
        #expect(step.take(fix, at: start, monotonic: 0).events.isEmpty, "the entry waits out its debounce")
        #expect(step.advance(to: start + 3).events.isEmpty)
        let due = step.advance(to: start + 5)
        #expect(due.events.map(\.client) == [Self.client] && due.events.allSatisfy { $0.line.contains(#""event":"enter""#) })
        #expect(due.regionChanges.map(\.entry.row) == [7] && due.regionChanges.map(\.entry.state) == [.inside])
    }
}
