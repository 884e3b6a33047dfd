import GeoWakeCore
import Testing
@testable import Beacons

/// What a store keeps of a beacon region inside, and a monitor restored from it: no second enter, the exit on time.
@Suite struct BeaconRegionMonitorRestoreTests {
    typealias T = BeaconRegionMonitorTests
    let region = BeaconRegion(id: "shop", uuid: BeaconFrames.uuid)

    @Test func aRestoredRegionExitsAtItsLastSightingPlusTheTimeoutAndDoesNotEnterAgain() throws {
        var original = BeaconRegionMonitor(regions: [region], exitTimeout: 30)
        _ = original.update(with: T.sighting(0), at: T.at(0))
        _ = original.update(with: T.sighting(12), at: T.at(12))
        let kept = try #require(original.lastSighting(of: "shop"))
        #expect(kept.time == T.at(12))

        var restored = BeaconRegionMonitor(regions: [region], exitTimeout: 30)
        restored.restore(inside: "shop", lastSeen: kept.time, beacon: kept.beacon)
        #expect(restored.nextDeadline == T.at(42))
        #expect(restored.update(with: T.sighting(20), at: T.at(20)).isEmpty, "no second enter")
        var events: [BeaconRegionEvent] = []
        restored.advance(to: T.at(60), events: &events)
        #expect(events.map(\.kind) == [.exit])
        #expect(events.first?.time == T.at(50))
        #expect(events.first?.beacon == kept.beacon)
        #expect(restored.lastSighting(of: "shop") == nil)
    }

    @Test func aRegionOutsideHasNoLastSighting() {
        var monitor = BeaconRegionMonitor(regions: [region], exitTimeout: 30)
        #expect(monitor.lastSighting(of: "shop") == nil)
        _ = monitor.update(with: T.sighting(0), at: T.at(0))
        var events: [BeaconRegionEvent] = []
        monitor.advance(to: T.at(30), events: &events)
        #expect(monitor.lastSighting(of: "shop") == nil)
        #expect(monitor.lastSighting(of: "elsewhere") == nil)
    }
}
