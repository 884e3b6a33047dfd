import Foundation
import GeoWake
import GeoWakeCore
import Testing

/// The GeoWake library's beacon API against the real daemon replaying the recorded beacon trace.
@Suite(.serialized) struct BeaconLibraryTests {
    @Test func aBeaconRegionsEnterAndExitAndRangingReportsReachTheLibrary() async throws {
        let daemon = DaemonProcess()
        // 10 times real time: the entrance beacon is heard for the first 15 s, so ranging (which starts the trace)
        // and the region's enter both come on a loaded machine too; the exit follows 3 s after its last sighting.
        try daemon.start(source: nil, options: ["--beacon-source", "trace:" + BeaconFixtures.trace, "--speed", "10"])
        let manager = try await LocationManager(clientID: "org.example.beacon-library", socketPath: daemon.socket)
        defer { manager.stop() }
        let identity = BeaconIdentity(uuid: BeaconFixtures.shopUUID.uppercased(), major: 1)
        try await manager.startRangingBeacons(satisfying: identity)
        try await manager.monitor(beacon: identity, id: "entrance")
        let seen = try await within(40) {
            var seen: [(String, RegionRef)] = []
            for try await event in manager.events {
                switch event.kind {
                case .enter(let region): seen.append(("enter", region))
                case .exit(let region): seen.append(("exit", region))
                default: continue
                }
                if seen.count == 2 { break }
            }
            return seen
        }
        #expect(seen.map(\.0) == ["enter", "exit"])
        #expect(seen.allSatisfy { $0.1.id == "entrance" && $0.1.beacon == BeaconIdentity(uuid: identity.uuid, major: 1, minor: 0) })
        #expect(try await manager.state(of: "entrance") == .outside)
        let ranges = try await within(10) {
            var ranges: [RangedBeacon] = []
            for await range in manager.rangedBeacons {
                ranges.append(range)
                if ranges.count == 5 { break }
            }
            return ranges
        }
        #expect(ranges.count == 5)
        #expect(ranges.allSatisfy { $0.identity.uuid == identity.uuid && $0.identity.major == 1 && $0.distance != nil })
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.time < $1.time })
    }
}

/// The body's result, or a thrown `TimedOut` once `seconds` passed, so a missing event fails the test instead of hanging it.
func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        guard let first = try await group.next(), let result = first else {
            group.cancelAll()
            throw ProtocolTestError("nothing within \(seconds) s")
        }
        group.cancelAll()
        return result
    }
}
