#if canImport(Glibc)
import Glibc
#endif

/// Where a worker's time goes, for `geowake fleet worker`'s last line and the benchmark: in NATS calls
/// (fetching input, publishing events, waiting for acknowledgements, writing checkpoints) or in geowake
/// (parsing payloads, the services, formatting events, encoding checkpoints).
public struct WorkerStatistics: Sendable {
    public internal(set) var messages = 0
    /// Fixes fed to the services (a message may carry many).
    public internal(set) var fixes = 0
    public internal(set) var events = 0
    /// Monotonic nanoseconds of the first and last message processed.
    public internal(set) var firstMessage: Int64?
    public internal(set) var lastMessage: Int64 = 0
    public internal(set) var natsNanoseconds: Int64 = 0
    public internal(set) var busyNanoseconds: Int64 = 0

    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    public var summary: String {
        let span = Double(lastMessage - (firstMessage ?? lastMessage)) / 1e9
        let rate = span > 0 ? Int(Double(fixes) / span) : 0
        let natsShare = busyNanoseconds > 0 ? Int((Double(natsNanoseconds) / Double(busyNanoseconds) * 100).rounded()) : 0
        return "\(messages) messages, \(fixes) fixes, \(events) events in \(Int(span * 1000)) ms (\(rate) fixes/s); "
            + "busy \(busyNanoseconds / 1_000_000) ms, of which NATS \(natsNanoseconds / 1_000_000) ms (\(natsShare)%)"
    }
}
