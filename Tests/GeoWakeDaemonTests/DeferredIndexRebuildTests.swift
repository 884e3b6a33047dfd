import Foundation
import GeoWakeCore
@testable import GeoWakeDaemon
import Logging
import Testing
import TestSupport

/// `monitor`s leave their index's rebuild for later (`RegionGroup.add`): the decisions ask for it once no region came
/// for `DaemonCore.quietBeforeRebuild`, and the loop hands it in then (`.rebuildDeferredIndexes`).
@Suite struct DeferredIndexRebuildTests {
    let directory = TemporaryDirectory()
    let connection = ConnectionID(serial: 1)
    let start = Timestamp(secondsSince1970: 1_700_000_000)

    /// The loop's clocks, moved by the test.
    final class Clock: @unchecked Sendable {
        var monotonic = 0.0
    }

    func registered(_ clock: Clock) throws -> Daemon {
        let start = start
        let daemon = try Daemon(paths: DaemonPaths(socket: directory.file("geowaked.sock"), state: directory.file("geowake.sqlite")),
                                trace: nil, speed: 1, durability: .normal, logger: Logger(label: "test"),
                                clock: DaemonClock(monotonic: { clock.monotonic }, wall: { start + clock.monotonic }))
        _ = daemon.core.take(.opened(connection, Peer(uid: 1000, gid: 1000, pid: 4242)), at: start, monotonic: 0)
        for line in [#"{"op":"hello","id":1,"protocol":1}"#, #"{"op":"register","id":2,"client":"org.example.burst"}"#] {
            _ = daemon.settle(.request(connection, Array(line.utf8)[...]), at: start)
        }
        return daemon
    }

    /// Whether the daemon's regions wait for a deferred rebuild (read out here: an expectation on the regions
    /// themselves would print every one of them when it fails).
    func deferred(_ daemon: Daemon) -> Bool { daemon.core.regions.hasDeferredRebuild }

    /// `monitor` with `count` circles spread over Berlin, their ids `prefix` and a number.
    func monitor(_ daemon: Daemon, _ count: Int, prefix: String, at monotonic: Double) {
        let features = (0..<count).map { n in
            let longitude = 13.2 + Double(n % 100) * 0.004, latitude = 52.4 + Double(n / 100) * 0.002
            return #"{"type":"Feature","id":"\#(prefix)\#(n)","properties":{"radius":80},"geometry":{"type":"Point","coordinates":[\#(longitude),\#(latitude)]}}"#
        }
        let line = #"{"op":"monitor","id":3,"features":[\#(features.joined(separator: ","))]}"#
        let replies = daemon.settle(.request(connection, Array(line.utf8)[...]), at: start + monotonic, monotonic: monotonic)
        #expect(replies.contains { if case .send(_, let reply, _) = $0 { String(decoding: reply, as: UTF8.self).contains(#""added":\#(count)"#) } else { false } })
    }

    @Test func aBurstOfMonitorsDefersTheRebuildUntilAdditionsStopForHalfASecond() throws {
        let daemon = try registered(Clock())
        monitor(daemon, 2000, prefix: "a", at: 0)
        #expect(!deferred(daemon) && daemon.core.indexRebuildDue == nil, "an empty index is built at once")

        monitor(daemon, 5000, prefix: "b", at: 1)
        #expect(deferred(daemon), "5,000 added to 2,000: past twice the main tree")
        #expect(daemon.core.indexRebuildDue == 1 + DaemonCore.quietBeforeRebuild)
        monitor(daemon, 100, prefix: "c", at: 1.2)
        #expect(daemon.core.indexRebuildDue == 1.2 + DaemonCore.quietBeforeRebuild, "each addition puts it off")

        #expect(daemon.core.take(.rebuildDeferredIndexes, at: start + 2, monotonic: 2).isEmpty, "no client hears of it")
        #expect(!deferred(daemon) && daemon.core.indexRebuildDue == nil)
        let monitored = daemon.core.regions.count(of: ClientKey(uid: 1000, clientID: "org.example.burst"))
        #expect(monitored == 7100)
    }

    @Test func theLoopHandsTheRebuildInOnceItsTimeHasCome() throws {
        let clock = Clock()
        let daemon = try registered(clock)
        monitor(daemon, 2000, prefix: "a", at: 0)
        monitor(daemon, 5000, prefix: "b", at: 1)
        clock.monotonic = 1.4
        _ = try daemon.turn(waiting: false)
        #expect(deferred(daemon), "not yet quiet for half a second")
        clock.monotonic = 1.5
        _ = try daemon.turn(waiting: false)
        #expect(!deferred(daemon) && daemon.core.indexRebuildDue == nil)
    }
}
