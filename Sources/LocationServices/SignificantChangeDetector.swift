import GeoWakeCore

/// The significant-change service: a coarse update only when the device has moved far and a while has passed,
/// the way a phone reports significant changes to save power.
///
/// The first fix is reported. After that a fix is reported when it lies at least `distance` metres from the
/// last reported position and at least `interval` seconds have passed since that report. A fix whose `now`
/// is earlier than the previous fix's is ignored.
public struct SignificantChangeDetector: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// Metres from the last reported position.
        public var distance: Double
        /// Seconds since the last report.
        public var interval: Double

        public init(distance: Double = 500, interval: Double = 300) {
            self.distance = distance
            self.interval = interval
        }

        public func validate() throws(InvalidServiceConfiguration) {
            try InvalidServiceConfiguration.requireNonNegative(distance, "significant-change distance", unit: "metres")
            try InvalidServiceConfiguration.requireNonNegative(interval, "significant-change interval", unit: "seconds")
        }
    }

    public let configuration: Configuration
    private var lastReported: (coordinate: Coordinate, at: Timestamp)?
    private var lastSeen: Timestamp?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// What the service remembers between fixes, so that a caller can keep it across a restart.
    public var memory: ReportMemory {
        get { ReportMemory(last: lastReported, lastSeen: lastSeen) }
        set {
            lastReported = newValue.last
            lastSeen = newValue.lastSeen
        }
    }

    /// The fix, when it is a significant change.
    public mutating func update(with fix: Fix, at now: Timestamp) -> Fix? {
        if let lastSeen, now < lastSeen { return nil }
        lastSeen = now
        if let last = lastReported {
            guard now - last.at >= configuration.interval,
                  Geodesy.distance(last.coordinate, fix.coordinate) >= configuration.distance else { return nil }
        }
        lastReported = (fix.coordinate, now)
        return fix
    }
}
