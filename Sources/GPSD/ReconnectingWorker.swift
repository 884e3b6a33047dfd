import Dispatch
import GeoWakeCore

/// The thread behind a live source while it has consumers: runs a session (a gpsd connection, an open
/// tty) and, whenever one fails, waits out the backoff and runs the next, until stopped.
final class ReconnectingWorker: SourceWorker {
    /// One session: open, then read until the connection or device fails (returning why) or `stop` is
    /// raised (returning nil). Throwing means the open failed. It resets `backoff` once the connection
    /// has proved itself, so the next failure retries quickly.
    typealias Session = @Sendable (_ stop: WakeSignal, _ states: StateReporter, _ backoff: inout Backoff) throws -> String?

    private let stopSignal = WakeSignal()
    private let finished = DispatchSemaphore(value: 0)

    private init() {}

    static func start(after previous: (any SourceWorker)?, backoff: Backoff,
                      onStateChange: @escaping SourceStateHandler, session: @escaping Session) -> ReconnectingWorker {
        let worker = ReconnectingWorker()
        startWorkerThread {
            // Held only by this thread, whose predecessor's thread has ended: workers never form a chain.
            previous?.waitUntilFinished()
            worker.run(backoff: backoff, states: StateReporter(onStateChange), session: session)
        }
        return worker
    }

    func stop() {
        stopSignal.raise()
    }

    func waitUntilFinished() {
        finished.wait()
        finished.signal()
    }

    private func run(backoff initial: Backoff, states: StateReporter, session: Session) {
        var backoff = initial
        // Reported once: retries after a failure stay `.unavailable` until one succeeds.
        states.report(.connecting)
        while !stopSignal.isRaised {
            let failure: String
            do {
                guard let reason = try session(stopSignal, states, &backoff) else { break }
                failure = reason
            } catch {
                failure = "\(error)"
            }
            states.report(.unavailable(failure))
            if stopSignal.wait(backoff.next()) { break }
        }
        states.report(.idle)
        finished.signal()
    }
}
