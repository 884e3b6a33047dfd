import Foundation
import GeoWake
import GeoWakeCore
import Testing

/// `LocationManager.monitoredRegions()` against the real daemon: every region comes back, page after page of `list`,
/// in byte order of the ids, with its state as the replayed fixes decided it.
@Suite(.serialized) struct MonitoredRegionsTests {
    @Test func everyMonitoredRegionComesBackAcrossPagesWithTheStateTheFixesDecided() async throws {
        let daemon = DaemonProcess()
        try daemon.start()
        let manager = try await LocationManager(clientID: "org.example.monitored", socketPath: daemon.socket)
        defer { manager.stop() }
        // 1,500 circles far out at sea (more than a page of 1,000), one over all of Berlin, one beacon region.
        let far = (0..<1_500).map { Region.circle(id: String(format: "sea-%04d", $0), latitude: -40 + Double($0) / 100, longitude: -30, radius: 50) }
        try await manager.monitor(far + [.circle(id: "berlin", latitude: 52.52, longitude: 13.40, radius: 40_000)])
        let shop = BeaconIdentity(uuid: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", major: 7)
        try await manager.monitor(beacon: shop, id: "a-shop")
        let regions = try await within(60) {
            while true {
                let regions = try await manager.monitoredRegions()
                if regions.first(where: { $0.id == "berlin" })?.state == .inside { return regions }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(regions.map(\.id) == ["a-shop", "berlin"] + far.map(\.id))
        let beacon = regions.first { $0.id == "a-shop" }
        #expect(beacon?.state == .outside && beacon?.since == nil && beacon?.beacon == shop)
        #expect(regions.first { $0.id == "berlin" }?.since != nil)
        #expect(regions.filter { $0.id.hasPrefix("sea-") }.allSatisfy { $0.state == .outside && $0.since != nil })
    }
}
