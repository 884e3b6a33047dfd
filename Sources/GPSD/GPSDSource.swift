import GeoWakeCore

/// Live fixes from gpsd through libgps.
///
/// Nothing happens until someone iterates `fixes()` or starts a `watch`. The first consumer makes the source connect and
/// WATCH; when the last one leaves it ends the watch and disconnects, so gpsd can close the device and
/// power the receiver down. While watching it survives gpsd being absent, restarted or silent, and the
/// receiver losing its fix: it reconnects with capped exponential backoff and reports each change of
/// state once through `onStateChange`.
public final class GPSDSource: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var host: String
        public var port: Int
        /// Watch only this device (a path as gpsd names it); nil watches every device gpsd has.
        public var device: String?
        public var backoff: Backoff
        /// A TPV followed by this much quiet is the epoch's last, and goes out as its fix.
        public var epochGap: Duration
        /// With no report for this long the source says `.silent` and probes gpsd; with no answer for
        /// as long again, it treats the connection as dead and reconnects.
        public var silenceTimeout: Duration

        public init(host: String = "localhost", port: Int = 2947, device: String? = nil,
                    backoff: Backoff = Backoff(), epochGap: Duration = .milliseconds(100),
                    silenceTimeout: Duration = .seconds(10)) {
            self.host = host
            self.port = port
            self.device = device
            self.backoff = backoff
            self.epochGap = epochGap
            self.silenceTimeout = silenceTimeout
        }
    }

    public let configuration: Configuration
    private let demand: FixDemand

    public init(_ configuration: Configuration = Configuration(),
                onStateChange: @escaping SourceStateHandler = { _ in }) {
        self.configuration = configuration
        demand = FixDemand { demand, previous in
            let session = GPSDSession(configuration: configuration, publish: demand.publish)
            return ReconnectingWorker.start(after: previous, backoff: configuration.backoff,
                                            onStateChange: onStateChange, session: session.run)
        }
    }

    /// A sequence of live fixes; see `FixStream` for how consumers start and stop the watch.
    public func fixes(bufferingNewest limit: Int = 256) -> FixStream {
        FixStream(demand: demand, bufferingNewest: limit)
    }

    /// Hands each fix to `deliver` on the source's thread until the returned watch stops: the daemon's way, one
    /// hop from the receiver into its loop's inbox.
    public func watch(_ deliver: @escaping @Sendable (Fix) -> Void) -> FixWatch {
        demand.watch(deliver)
    }

    /// How many consumers (iterations of `fixes()` and watches) are running now.
    public var consumerCount: Int { demand.consumerCount }
}
