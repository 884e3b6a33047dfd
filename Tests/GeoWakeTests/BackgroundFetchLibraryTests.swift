import Foundation
@testable import GeoWake
import Testing

/// The library's background fetch against a scripted daemon: what it sends, how it reads the schedule, and the
/// `fetch` message as a `BackgroundFetch`.
@Suite struct BackgroundFetchLibraryTests {
    @Test func aFetchMessageArrivesInBackgroundFetchesAndTheResultAndIntervalGoToTheDaemon() async throws {
        let peer = try ProtocolPeer()
        let manager = try await LocationManager(clientID: "org.example.test", socketPath: peer.path)
        defer { manager.stop() }
        let schedule = try #require(try await manager.setMinimumBackgroundFetchInterval(900))
        #expect(schedule.minimumInterval == 900 && schedule.interval == 900 && schedule.nextIn == 900 && schedule.lastResult == nil)

        peer.notice(#"{"type":"fetch","budgetLeft":29.5}"#)
        var fetches = manager.backgroundFetches.makeAsyncIterator()
        #expect(await fetches.next()?.budgetLeft == 29.5)
        let after = try #require(try await manager.completeBackgroundFetch(.noData))
        #expect(after.interval == 1800 && after.lastResult == .noData)

        #expect(try await manager.setMinimumBackgroundFetchInterval(nil) == nil, "nil stops fetches")
        #expect(peer.fetchRequests.map { $0["op"] } == ["setBackgroundFetch", "completeBackgroundFetch", "setBackgroundFetch"])
        #expect(peer.fetchRequests.map { $0["minimumInterval"] ?? $0["result"] } == [.number(900), "noData", .null])
    }
}
