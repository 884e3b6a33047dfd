import Foundation
@testable import GeoWake
import GeoWakeCore
import Testing

@Suite struct LocationManagerDeliveryTests {
    static func enter(_ region: String) -> String {
        #"{"event":"enter","region":"\#(region)","time":"2014-12-31T03:07:19.000Z","lat":52.5,"lon":13.4}"#
    }

    /// Waits for a condition the other side brings about; fails the test after `seconds` instead of hanging. Generous:
    /// beside the daemon suites on two cores the manager's reconnect once took over 5 s to be scheduled.
    static func eventually(_ seconds: Double = 30, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func anEventIsAcknowledgedOnlyAfterTheLoopBodyReturns() async throws {
        let peer = try ProtocolPeer()
        peer.emit(Self.enter("depot"))
        let manager = try await LocationManager(clientID: "org.example.test", socketPath: peer.path)
        var iterator = manager.events.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.seq == 1)
        #expect(first?.kind == .enter(RegionRef(id: "depot", crossed: false, reason: nil)))
        try await Task.sleep(for: .milliseconds(200))
        #expect(peer.acked == 0, "acknowledged while user code still held the event")
        peer.emit(Self.enter("home"))
        _ = try await iterator.next()
        #expect(try await Self.eventually { peer.acked == 1 })
        manager.stop()
    }

    @Test func afterAHangUpTheManagerRegistersAgainAndUserCodeSeesEachEventOnceInOrder() async throws {
        let peer = try ProtocolPeer()
        for region in ["a", "b", "c"] { peer.emit(Self.enter(region)) }
        let manager = try await LocationManager(clientID: "org.example.test", socketPath: peer.path)
        var seen: [Int64] = []
        for try await event in manager.events {
            seen.append(event.seq)
            if event.seq == 2 {
                // Event 3 is in flight and unacknowledged: the daemon will send it again after the reconnect.
                #expect(try await Self.eventually { peer.acked == 1 })
                peer.dropConnection()
                #expect(try await Self.eventually { peer.registers == 2 })
                peer.emit(Self.enter("d"))
            }
            if event.seq == 4 { break }
        }
        #expect(seen == [1, 2, 3, 4])
        #expect(peer.registers == 2)
        manager.stop()
    }

    @Test func afterAPowerCutRolledTheDaemonBackANewEventWithAnEarlierSeqInALaterEpochReachesUserCode() async throws {
        let peer = try ProtocolPeer()
        for region in ["a", "b", "c"] { peer.emit(Self.enter(region)) }
        let manager = try await LocationManager(clientID: "org.example.test", socketPath: peer.path)
        var seen: [String] = []
        for try await event in manager.events {
            guard case .enter(let region) = event.kind else { continue }
            seen.append("\(event.epoch)/\(event.seq)/\(region.id)")
            if region.id == "c" {
                #expect(try await Self.eventually { peer.acked == 2 })
                // The store kept only event 1: b and c, handled already, were lost with their acks.
                peer.powerCut(keeping: 1)
                #expect(try await Self.eventually { peer.registers == 2 })
                peer.emit(Self.enter("d"))
            }
            if region.id == "d" { peer.emit(Self.enter("e")) }
            if region.id == "e" { break }
        }
        #expect(seen == ["1/1/a", "1/2/b", "1/3/c", "2/2/d", "2/3/e"], "seq 2 again, but of epoch 2: a new event, not a resend")
        #expect(try await Self.eventually { peer.acked == 2 }, "d is acknowledged by its own seq")
        manager.stop()
    }

    @Test func aRejectedRequestThrowsTheDaemonsCode() async throws {
        let peer = try ProtocolPeer()
        let manager = try await LocationManager(clientID: "org.example.test", socketPath: peer.path)
        await #expect(throws: GeoWakeError.rejected(request: "regionState", code: "unknownOp", message: "no regionState")) {
            _ = try await manager.state(of: "depot")
        }
        manager.stop()
    }

    @Test func noDaemonIsOneClearError() async throws {
        await #expect(throws: GeoWakeError.connectionFailed(path: "/nonexistent/geowaked.sock", reason: "No such file or directory")) {
            _ = try await LocationManager(clientID: "org.example.test", socketPath: "/nonexistent/geowaked.sock")
        }
    }
}
