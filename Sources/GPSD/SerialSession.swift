#if canImport(Glibc)
import GeoWakeCore
import Glibc
#endif
import Traces

/// One opening of a tty: read NMEA into fixes until the device goes away or the source is stopped.
struct SerialSession {
    let configuration: SerialNMEASource.Configuration
    let publish: @Sendable (Fix) -> Void

    /// Returns why the device went away, or nil when `stop` was raised; throws when it cannot be opened.
    func run(stop: WakeSignal, states: StateReporter, backoff: inout Backoff) throws(SerialError) -> String? {
        let port = try SerialPort(path: configuration.path, baudRate: configuration.baudRate)
        states.report(.watching)
        // A fresh reader per opening: half a sentence from before an unplug must not join the next one.
        var reader = NMEAReader()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var epochPending = false
        var lastByte = ContinuousClock.now
        var lastFix = lastByte
        var descriptors = [
            pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        let emit: (Fix) -> Void = { fix in
            lastFix = .now
            states.report(.fixing)
            publish(fix)
        }
        while !stop.isRaised {
            let result = buffer.withUnsafeMutableBytes { port.read(into: $0) }
            switch result {
            case .gone(let reason):
                return "\(configuration.path): \(reason)"
            case .bytes(let count):
                lastByte = .now
                epochPending = true
                backoff.reset()
                buffer.withUnsafeBytes { reader.consume(UnsafeRawBufferPointer(rebasing: $0[0..<count]), emit) }
                continue
            case .wouldBlock:
                break
            }
            let now = ContinuousClock.now
            if epochPending && now - lastByte >= configuration.epochGap {
                reader.flush(emit)
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
            if poll(&descriptors, 2, stop.pollTimeout(now.duration(to: wake))) < 0 && errno != EINTR {
                return "poll failed: \(String(cString: strerror(errno)))"
            }
            let events = descriptors[0].revents
            if events & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && events & Int16(POLLIN) == 0 {
                return "\(configuration.path): hung up"
            }
        }
        return nil
    }
}
