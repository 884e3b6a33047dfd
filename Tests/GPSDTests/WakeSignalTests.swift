import Dispatch
import GeoWakeCore
@testable import GPSD
import Testing

@Suite struct WakeSignalTests {
    /// Raised from another thread after 100 ms, the signal ends a wait of 10 s; returns how long it took.
    static func wakeTime(_ signal: WakeSignal) -> Duration {
        let start = ContinuousClock.now
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { signal.raise() }
        #expect(signal.wait(.seconds(10)))
        return ContinuousClock.now - start
    }

    @Test func aRaisedSignalEndsAWaitAtOnce() {
        let signal = WakeSignal()
        #expect(signal.descriptor >= 0)
        #expect(Self.wakeTime(signal) < .seconds(2))
    }

    /// Out of descriptors, a worker's stop must still be noticed, by the flag alone, and nothing may crash.
    @Test func withoutAPipeTheFlagAloneEndsAWaitSoon() {
        let signal = WakeSignal(selfPipe: false)
        #expect(signal.descriptor == -1 && signal.longestWait <= .milliseconds(100))
        #expect(Self.wakeTime(signal) < .seconds(2))
        #expect(signal.isRaised)
    }

    @Test func aWorkerThreadRunsItsBody() {
        let ran = DispatchSemaphore(value: 0)
        #expect(startDetachedThread { ran.signal() })
        #expect(ran.wait(timeout: .now() + 5) == .success)
    }
}
