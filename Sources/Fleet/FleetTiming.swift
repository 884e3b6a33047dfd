/// The clocks the delivery promise rests on, in milliseconds; docs/fleet.md states the same numbers.
public struct FleetTiming: Sendable {
    /// A partition's lease lives this long after its last renewal (the leases bucket's TTL).
    public var leaseTTL: Int64 = 4000
    /// Owners renew, and idle workers look for free partitions, this often.
    public var leaseRenewal: Int64 = 1000
    /// State is checkpointed at least this often while a partition has new input…
    public var checkpointInterval: Int64 = 1000
    /// …and after this many messages of one partition, whichever comes first…
    public var checkpointMessages = 20_000
    /// …but never sooner after the last one than this many times what the last one took, up to
    /// `checkpointIntervalLimit`: a checkpoint holds every device's state (100,000 devices inside 78 regions
    /// each were 350 MB in GWC2, about 140 MB in GWC3), and written every second it was all a worker did.
    public var checkpointCostFactor: Int64 = 10
    public var checkpointIntervalLimit: Int64 = 30_000
    /// The events stream's de-duplication window: a re-published event is dropped if its first copy is younger.
    /// Re-processing reaches back at most `checkpointIntervalLimit` and a takeover (10 s): well inside it.
    public var duplicateWindow: Int64 = 120_000

    /// Messages asked for in one pull request of a partition consumer (acknowledged together, by the last)…
    public var fetchBatch = 4096
    /// …fewer when they would pass this many bytes: 4096 messages of 100 fixes each would be 48 MB and seconds
    /// of work in one round.
    public var fetchBytes = 1 << 20
    /// Messages read from one partition before the worker turns to the next.
    public var readPerRound = 16_384

    public init() {}
}
