#if canImport(Glibc)
import Glibc
#endif
import Dispatch
@testable import GPSD
import Testing
import GPSDTestSupport

/// Connecting to gpsd must never hold a source's worker where a stop cannot reach it.
@Suite struct GPSDConnectProbeTests {
    /// A loopback port that never answers: its listener's accept queue is already full, so the kernel
    /// drops further connection requests, as a host behind a dropping firewall would.
    final class SilentPort {
        let port: Int
        private let listener: Int32, filler: Int32

        init() throws {
            (listener, port) = try boundLoopbackSocket(backlog: 0)
            filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(connectLoopback(filler, port: port))
        }

        deinit {
            close(filler)
            close(listener)
        }
    }

    @Test func aListeningPortIsReachedAndAClosedOneIsNamedWithItsReason() throws {
        let (listener, port) = try boundLoopbackSocket(backlog: 8)
        defer { close(listener) }
        #expect(try ConnectProbe.reach(host: "127.0.0.1", port: port, timeout: .seconds(5), stop: WakeSignal()))
        let closed = try freePort()
        #expect(throws: GPSDError("cannot reach 127.0.0.1:\(closed): Connection refused")) {
            try ConnectProbe.reach(host: "127.0.0.1", port: closed, timeout: .seconds(5), stop: WakeSignal())
        }
    }

    @Test func aConnectionThatGetsNoAnswerEndsWhenStoppedOrTimedOut() throws {
        let silent = try SilentPort()
        let stop = WakeSignal(), start = ContinuousClock.now
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) { stop.raise() }
        #expect(try ConnectProbe.reach(host: "127.0.0.1", port: silent.port, timeout: .seconds(60), stop: stop) == false)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(throws: GPSDError("cannot reach 127.0.0.1:\(silent.port): timed out")) {
            try ConnectProbe.reach(host: "127.0.0.1", port: silent.port, timeout: .milliseconds(300), stop: WakeSignal())
        }
    }

    @Test("A source whose gpsd never answers goes idle as soon as its last consumer leaves")
    func aSourceStopsPromptlyWhileGPSDDoesNotAnswer() async throws {
        let silent = try SilentPort()
        let states = StateRecorder()
        let source = GPSDSource(.init(host: "127.0.0.1", port: silent.port, backoff: GPSDHarness.quickBackoff),
                                onStateChange: states.handler)
        let consumer = Task { for await _ in source.fixes() {} }
        try #require(await eventually(within: .seconds(5)) { states.last == .connecting })
        try await Task.sleep(for: .milliseconds(300))
        consumer.cancel()
        #expect(await eventually(within: .seconds(3)) { states.last == .idle }, "\(states.states)")
    }
}
