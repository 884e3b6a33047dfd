#if canImport(Glibc)
import Glibc
#endif

/// The engine's own ceiling on this machine (`geowake fleet drain`, a benchmark): partitions read exactly as a
/// worker reads them — the same durable pull consumers, from the stream's start, the same fetch batches and
/// byte limit, the same acknowledgement of a batch by its last message, the same rounds over the partitions —
/// with nothing done to a message but counting its lines (its fixes). Whatever a worker does beyond this,
/// per fix, is geowake's. It publishes no events and writes no checkpoints.
public enum FleetDrain {
    public struct Result: Sendable {
        public var messages = 0
        public var fixes = 0
        public var bytes = 0
        /// From the first message's fetch to the last message's acknowledgement.
        public var nanoseconds: Int64 = 0
        /// The process's CPU time (every thread, libnats's too) over the same span.
        public var cpuNanoseconds: Int64 = 0

        public var json: String {
            let seconds = Double(nanoseconds) / 1e9, cpu = Double(cpuNanoseconds) / 1e9
            return "{\"messages\":\(messages),\"fixes\":\(fixes),\"bytes\":\(bytes),\"ms\":\(nanoseconds / 1_000_000),"
                + "\"cpu_ms\":\(cpuNanoseconds / 1_000_000),\"messages_per_s\":\(seconds > 0 ? Int(Double(messages) / seconds) : 0),"
                + "\"fixes_per_s\":\(seconds > 0 ? Int(Double(fixes) / seconds) : 0),"
                + "\"fixes_per_cpu_s\":\(cpu > 0 ? Int(Double(fixes) / cpu) : 0)}"
        }
    }

    /// Reads `partitions` until none has given a message for `idleMilliseconds` (after the first message).
    public static func run(_ connection: NATSConnection, partitions: [Int], timing: FleetTiming,
                           idleMilliseconds: Int64) throws -> Result {
        let subscriptions = try partitions.map { try PartitionSubscription(connection, partition: $0, from: 1) }
        HelperThreads.yieldToCaller()
        var result = Result()
        var first: (wall: Int64, cpu: Int64)?
        var last = (wall: WorkerStatistics.now(), cpu: Int64(0))
        while WorkerStatistics.now() - last.wall < idleMilliseconds * 1_000_000 {
            var round = 0
            for subscription in subscriptions {
                var read = 0
                let roundStart = WorkerStatistics.now()
                while read < timing.readPerRound, WorkerStatistics.now() - roundStart < 100_000_000 {
                    let fetchStart = (wall: WorkerStatistics.now(), cpu: cpuNow())
                    let count = try subscription.read(batch: timing.fetchBatch, maxBytes: timing.fetchBytes,
                                                      timeoutMilliseconds: 1) { message in
                        result.bytes += message.payload.count
                        result.fixes += lines(message.payload)
                    }
                    guard count > 0 else { break }
                    if first == nil { first = fetchStart }
                    last = (WorkerStatistics.now(), cpuNow())
                    read += count
                }
                result.messages += read
                round += read
            }
            if round == 0 { usleep(2000) }
        }
        if let first {
            result.nanoseconds = last.wall - first.wall
            result.cpuNanoseconds = last.cpu - first.cpu
        }
        return result
    }

    /// Non-blank lines: a batch's fixes.
    static func lines(_ payload: UnsafeRawBufferPointer) -> Int {
        guard let base = payload.baseAddress, !payload.isEmpty else { return 0 }
        var count = 0, start = 0
        while start < payload.count {
            let end = memchr(base + start, 0x0A, payload.count - start).map { UnsafeRawPointer($0) - base } ?? payload.count
            if end > start { count += 1 }
            start = end + 1
        }
        return count
    }

    static func cpuNow() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
