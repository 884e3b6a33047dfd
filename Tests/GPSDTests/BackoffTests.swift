import GPSD
import Testing

@Suite struct BackoffTests {
    @Test("Delays double from the initial one up to the cap, and start over after a reset")
    func doublesUpToTheCapAndResets() {
        var backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(2))
        let delays = (0..<6).map { _ in backoff.next() }
        #expect(delays == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2)])
        backoff.reset()
        #expect(backoff.next() == .milliseconds(250))
    }

    @Test("The default waits a quarter second first and never more than 30 s")
    func defaults() {
        var backoff = Backoff()
        #expect(backoff.next() == .milliseconds(250))
        for _ in 0..<100 { _ = backoff.next() }
        #expect(backoff.next() == .seconds(30))
    }
}
