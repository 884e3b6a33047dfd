#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// One watch of gpsd, from the first consumer's arrival to the last one's departure, on its own thread:
/// connect, WATCH, read TPVs into fixes, and on any failure wait out the backoff and start again.
final class GPSDWorker: SourceWorker {
    private let configuration: GPSDSource.Configuration
    private let demand: FixDemand
    private let previous: (any SourceWorker)?
    private let onStateChange: SourceStateHandler
    private let stopSignal = WakeSignal()
    private let finished = DispatchSemaphore(value: 0)

    private init(configuration: GPSDSource.Configuration, demand: FixDemand, previous: (any SourceWorker)?,
                 onStateChange: @escaping SourceStateHandler) {
        self.configuration = configuration
        self.demand = demand
        self.previous = previous
        self.onStateChange = onStateChange
    }

    static func start(configuration: GPSDSource.Configuration, demand: FixDemand, after previous: (any SourceWorker)?,
                      onStateChange: @escaping SourceStateHandler) -> GPSDWorker {
        let worker = GPSDWorker(configuration: configuration, demand: demand, previous: previous,
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
        // Reported once: retries after a failure stay `.unavailable` until one succeeds.
        states.report(.connecting)
        while !stopSignal.isRaised {
            let failure: String
            do {
                let connection = try GPSDConnection.open(host: configuration.host, port: configuration.port)
                defer { connection.close() }
                try connection.watch(device: configuration.device)
                guard let reason = watch(connection, states: states, backoff: &backoff) else { break }
                failure = reason
            } catch {
                failure = error.description
            }
            states.report(.unavailable(failure))
            if stopSignal.wait(backoff.next()) { break }
        }
        states.report(.idle)
        finished.signal()
    }

    /// Reads reports until the connection fails (returns why) or the worker is stopped (returns nil).
    private func watch(_ connection: GPSDConnection, states: StateReporter, backoff: inout Backoff) -> String? {
        states.report(.watching)
        let silence = configuration.silenceTimeout
        var epoch = EpochCoalescer()
        var lastReceived = ContinuousClock.now
        var probeSentAt: ContinuousClock.Instant?
        var descriptors = [
            pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopSignal.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        defer { epoch.flush().map(demand.publish) }
        while !stopSignal.isRaised {
            switch connection.read() {
            case .closed:
                return "gpsd closed the connection"
            case .report(let report):
                lastReceived = .now
                probeSentAt = nil
                guard case .position(let fix) = report else { continue }
                backoff.reset()
                if let fix {
                    states.report(.fixing)
                    epoch.add(fix).map(demand.publish)
                } else {
                    states.report(.noFix)
                }
                continue
            case .needMoreData:
                break
            }
            let now = ContinuousClock.now
            if epoch.pending != nil && now - lastReceived >= configuration.epochGap {
                epoch.flush().map(demand.publish)
            }
            if let probeSentAt, now - probeSentAt >= silence {
                return "no answer from gpsd for \(silence)"
            }
            if probeSentAt == nil, now - lastReceived >= silence {
                states.report(.silent)
                guard connection.probe() else { return "cannot write to gpsd" }
                probeSentAt = now
            }
            let deadline = epoch.pending != nil ? lastReceived + configuration.epochGap
                                                : (probeSentAt ?? lastReceived) + silence
            if poll(&descriptors, 2, now.duration(to: deadline).pollTimeout) < 0 && errno != EINTR {
                return "poll failed: \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }
}
