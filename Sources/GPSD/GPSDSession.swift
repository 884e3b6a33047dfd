#if canImport(Glibc)
import GeoWakeCore
import Glibc
#endif

/// One connection to gpsd: connect, WATCH, and turn TPV reports into fixes until the connection fails
/// or the source is stopped.
struct GPSDSession {
    let configuration: GPSDSource.Configuration
    let publish: @Sendable (Fix) -> Void

    /// Returns why the connection ended, or nil when `stop` was raised; throws when it cannot connect.
    func run(stop: WakeSignal, states: StateReporter, backoff: inout Backoff) throws(GPSDError) -> String? {
        guard try ConnectProbe.reach(host: configuration.host, port: configuration.port,
                                     timeout: configuration.silenceTimeout, stop: stop) else { return nil }
        let connection = try GPSDConnection.open(host: configuration.host, port: configuration.port)
        defer { connection.close() }
        try connection.watch(device: configuration.device)
        states.report(.watching)

        let silence = configuration.silenceTimeout
        var epoch = EpochCoalescer()
        var lastReceived = ContinuousClock.now
        var probeSentAt: ContinuousClock.Instant?
        var descriptors = [
            pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        defer { epoch.flush().map(publish) }
        while !stop.isRaised {
            switch connection.read() {
            case .closed:
                return "gpsd closed the connection"
            case .report(let report):
                lastReceived = .now
                probeSentAt = nil
                if case .deviceRemoved = report { states.report(.silent) }
                guard case .position(let fix) = report else { continue }
                backoff.reset()
                if let fix {
                    states.report(.fixing)
                    epoch.add(fix).map(publish)
                } else {
                    states.report(.noFix)
                }
                continue
            case .needMoreData:
                break
            }
            let now = ContinuousClock.now
            if epoch.pending != nil && now - lastReceived >= configuration.epochGap {
                epoch.flush().map(publish)
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
            if poll(&descriptors, 2, stop.pollTimeout(now.duration(to: deadline))) < 0 && errno != EINTR {
                return "poll failed: \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }
}
