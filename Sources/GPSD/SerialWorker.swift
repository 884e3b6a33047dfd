#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Traces

/// One session of reading a tty, from the first consumer's arrival to the last one's departure:
/// open, read NMEA into fixes, and when the device goes away wait out the backoff and reopen the path.
final class SerialWorker: SourceWorker {
    private let configuration: SerialNMEASource.Configuration
    private let demand: FixDemand
    private let previous: (any SourceWorker)?
    private let onStateChange: SourceStateHandler
    private let stopSignal = WakeSignal()
    private let finished = DispatchSemaphore(value: 0)

    private init(configuration: SerialNMEASource.Configuration, demand: FixDemand, previous: (any SourceWorker)?,
                 onStateChange: @escaping SourceStateHandler) {
        self.configuration = configuration
        self.demand = demand
        self.previous = previous
        self.onStateChange = onStateChange
    }

    static func start(configuration: SerialNMEASource.Configuration, demand: FixDemand,
                      after previous: (any SourceWorker)?, onStateChange: @escaping SourceStateHandler) -> SerialWorker {
        let worker = SerialWorker(configuration: configuration, demand: demand, previous: previous,
                                  onStateChange: onStateChange)
        startWorkerThread { worker.run() }
        return worker
    }

    func stop() {
        stopSignal.raise()
    }

    func waitUntilFinished() {
        finished.wait()
        finished.signal()
    }

    private func run() {
        previous?.waitUntilFinished()
        let states = StateReporter(onStateChange)
        var backoff = configuration.backoff
        states.report(.connecting)
        while !stopSignal.isRaised {
            let failure: String
            do {
                let port = try SerialPort(path: configuration.path, baudRate: configuration.baudRate)
                guard let reason = read(port, states: states, backoff: &backoff) else { break }
                failure = "\(configuration.path): \(reason)"
            } catch {
                failure = error.description
            }
            states.report(.unavailable(failure))
            if stopSignal.wait(backoff.next()) { break }
        }
        states.report(.idle)
        finished.signal()
    }

    /// Reads until the device goes away (returns why) or the worker is stopped (returns nil).
    private func read(_ port: SerialPort, states: StateReporter, backoff: inout Backoff) -> String? {
        states.report(.watching)
        // A fresh reader per open: a half sentence from before the unplug must not join the next one.
        var reader = NMEAReader()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var epochPending = false
        var lastByte = ContinuousClock.now
        var lastFix = lastByte
        var descriptors = [
            pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopSignal.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        let publish: (Fix) -> Void = { [demand] fix in
            lastFix = .now
            states.report(.fixing)
            demand.publish(fix)
        }
        while !stopSignal.isRaised {
            let result = buffer.withUnsafeMutableBytes { port.read(into: $0) }
            switch result {
            case .gone(let reason):
                return reason
            case .bytes(let count):
                lastByte = .now
                epochPending = true
                backoff.reset()
                buffer.withUnsafeBytes { reader.consume(UnsafeRawBufferPointer(rebasing: $0[0..<count]), publish) }
                continue
            case .wouldBlock:
                break
            }
            let now = ContinuousClock.now
            if epochPending && now - lastByte >= configuration.epochGap {
                reader.flush(publish)
                epochPending = false
            }
            if now - lastByte >= configuration.silenceTimeout {
                states.report(.silent)
            } else if now - lastFix >= configuration.silenceTimeout {
                states.report(.noFix)
            }
            // Wake for the end of the epoch, else for the next silence check still ahead.
            let deadlines = [lastByte + configuration.silenceTimeout, lastFix + configuration.silenceTimeout]
            let wake = epochPending ? lastByte + configuration.epochGap
                                    : deadlines.filter { $0 > now }.min() ?? now + configuration.silenceTimeout
            let timeout = now.duration(to: wake)
            if poll(&descriptors, 2, timeout.pollTimeout) < 0 && errno != EINTR {
                return "poll failed: \(String(cString: strerror(errno)))"
            }
            if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && descriptors[0].revents & Int16(POLLIN) == 0 {
                return "hung up"
            }
        }
        return nil
    }
}
