import Testing
import GeoWakeCore
@testable import Geofencing
import RegionIndex
import Regions
import TestSupport

/// The monitor reuses a region's last measured boundary distance while the device has moved too little for
/// a gating or hysteresis decision to change. Pinned here against the monitor measuring every time, on the
/// real index (whose metrics the bound must cover), over devices that linger near boundaries.
@Suite struct MeasuredBoundariesTests {
    static let city = TestRegions.city(count: 1500, seed: 31, spanDegrees: 0.04)

    /// Standing (GPS jitter), walking, cycling and driving, with accuracy estimates of 2 to 40 m.
    static func lingeringTrace(seed: UInt64) -> [Fix] {
        var random = SeededGenerator(seed: seed)
        return RandomScene.walk(fixes: 3000, using: &random, speeds: [0..<0.3, 0..<2, 0..<1, 3..<8, 0..<0.5, 8..<20])
    }

    static let configurations = [
        RegionMonitorConfiguration(),
        RegionMonitorConfiguration(hysteresis: 15),
        RegionMonitorConfiguration(hysteresis: 4, debounce: 3, segmentCrossing: true),
    ]

    @Test(arguments: [0, 1, 2], [41, 42] as [UInt64])
    func reusedDistancesGiveTheEventsOfMeasuringEveryTime(configuration: Int, seed: UInt64) throws {
        let index = CountingIndex(try RegionIndex(regions: Self.city))
        let fixes = Self.lingeringTrace(seed: seed)
        let configuration = Self.configurations[configuration]

        let measuring = Self.events(index, fixes, configuration) { $0.isEnabled = false }
        let measuredEveryTime = index.count.reset()
        let reusing = Self.events(index, fixes, configuration) { _ in }
        let measuredWithReuse = index.count.reset()

        #expect(measuring.count > 100)
        #expect(reusing == measuring)
        // The shortcut is taken, and often (about half the time here, where the accuracy estimate, and with it
        // the threshold, jumps between 2 and 40 m from fix to fix): else the equality above would say little.
        #expect(measuredWithReuse * 4 < measuredEveryTime * 3, "\(measuredWithReuse) of \(measuredEveryTime)")
    }

    /// The test above would catch a bound that is wrong: one narrower than the distance moved decides some
    /// regions from a stale distance, and the events differ.
    @Test(arguments: [41, 42] as [UInt64])
    func aBandNarrowerThanTheDistanceMovedChangesEvents(seed: UInt64) throws {
        let index = CountingIndex(try RegionIndex(regions: Self.city))
        let fixes = Self.lingeringTrace(seed: seed)
        let configuration = RegionMonitorConfiguration(hysteresis: 15)

        let measuring = Self.events(index, fixes, configuration) { $0.isEnabled = false }
        let wrong = Self.events(index, fixes, configuration) { $0.movementFactor = 0.5 }
        #expect(wrong != measuring)
    }

    /// A monitor that lets go of its buffers between fixes (as a fleet worker's devices do between messages)
    /// forgets its measurements and decides the same.
    @Test func releasingBuffersBetweenFixesChangesNoEvent() throws {
        let index = CountingIndex(try RegionIndex(regions: Self.city))
        let fixes = Self.lingeringTrace(seed: 43)
        let configuration = RegionMonitorConfiguration(hysteresis: 15)
        let kept = Self.events(index, fixes, configuration) { _ in }
        var monitor = RegionMonitor(regions: index, configuration: configuration)
        var events: [RegionEvent] = []
        for (i, fix) in fixes.enumerated() {
            monitor.update(with: fix, at: fix.time!, events: &events)
            if i % 7 == 0 { monitor.releaseBuffers() }
        }
        #expect(events.map(RandomScene.render) == kept)
    }

    /// A monitor restored from a snapshot starts with no measurements, and its first ones are compared with
    /// from its first fix on: restored at many points of a trace, it decides as one that never reuses.
    @Test(arguments: [41, 44] as [UInt64])
    func aMonitorRestoredMidTraceDecidesAsOneMeasuringEveryTime(seed: UInt64) throws {
        let index = try RegionIndex(regions: Self.city)
        let fixes = Self.lingeringTrace(seed: seed)
        let configuration = RegionMonitorConfiguration(hysteresis: 20, debounce: 5)
        var measuring = RegionMonitor(regions: index, configuration: configuration)
        measuring.state.boundaries.isEnabled = false
        var differing: [Int] = []
        for cut in stride(from: 0, to: fixes.count, by: 50) {
            var restored = RegionMonitor(regions: index, configuration: configuration)
            restored.restore(measuring.snapshot())
            var expected: [RegionEvent] = [], events: [RegionEvent] = []
            for fix in fixes[cut..<min(cut + 50, fixes.count)] {
                measuring.update(with: fix, at: fix.time!, events: &expected)
                restored.update(with: fix, at: fix.time!, events: &events)
            }
            if events != expected { differing.append(cut) }
        }
        #expect(differing == [])
    }

    static func events(_ regions: CountingIndex, _ fixes: [Fix], _ configuration: RegionMonitorConfiguration,
                       adjust: (inout MeasuredBoundaries) -> Void) -> [String] {
        var monitor = RegionMonitor(regions: regions, configuration: configuration)
        adjust(&monitor.state.boundaries)
        var events: [RegionEvent] = []
        for fix in fixes { monitor.update(with: fix, at: fix.time!, events: &events) }
        return events.map(RandomScene.render)
    }
}

/// The real index, counting the boundary distances asked of it.
struct CountingIndex: RegionQuerying {
    final class Count {
        var value = 0
        func reset() -> Int {
            defer { value = 0 }
            return value
        }
    }

    let index: RegionIndex
    let count = Count()

    init(_ index: RegionIndex) {
        self.index = index
    }

    func forEachRegion(containing point: Coordinate, _ body: (RegionHandle) -> Void) {
        index.forEachRegion(containing: point, body)
    }

    func forEachRegion(within distance: Double, of point: Coordinate, _ body: (RegionHandle) -> Void) {
        index.forEachRegion(within: distance, of: point, body)
    }

    func forEachRegionMeasured(within distance: Double, of point: Coordinate, _ body: (RegionHandle, Double) -> Void) {
        index.forEachRegionMeasured(within: distance, of: point, body)
    }

    func forEachRegion(crossedBy a: Coordinate, _ b: Coordinate, _ body: (RegionHandle) -> Void) {
        index.forEachRegion(crossedBy: a, b, body)
    }

    func signedDistance(from point: Coordinate, to region: RegionHandle) -> Double {
        count.value += 1
        return index.signedDistance(from: point, to: region)
    }

    func signedDistance(from point: Coordinate, to region: RegionHandle, inside: Bool) -> Double {
        count.value += 1
        return index.signedDistance(from: point, to: region, inside: inside)
    }

    func contains(_ region: RegionHandle, _ point: Coordinate) -> Bool {
        index.contains(region, point)
    }

    func attributes(of region: RegionHandle) -> RegionAttributes {
        index.attributes(of: region)
    }
}
