import GeoWakeCore

/// The standard location service: which fixes a subscriber receives.
///
/// The first acceptable fix is always delivered; after that a fix is delivered when it lies at least the
/// distance filter from the last delivered one, is at least as accurate as desired, and comes at least the
/// minimum interval after the last delivery. A fix whose `now` is earlier than the previous fix's is ignored.
public struct StandardLocationFilter: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// Metres from the last delivered fix; 0 delivers every fix.
        public var distanceFilter: Double
        /// Metres: when set, only fixes whose `horizontalAccuracy` is known and at most this are delivered.
        public var desiredAccuracy: Double?
        /// Seconds: when set, at most one fix per interval.
        public var minimumInterval: Double?

        public init(distanceFilter: Double = 0, desiredAccuracy: Double? = nil, minimumInterval: Double? = nil) {
            self.distanceFilter = distanceFilter
            self.desiredAccuracy = desiredAccuracy
            self.minimumInterval = minimumInterval
        }

        public func validate() throws(InvalidServiceConfiguration) {
            try InvalidServiceConfiguration.requireNonNegative(distanceFilter, "distance filter", unit: "metres")
            if let desiredAccuracy {
                try InvalidServiceConfiguration.requirePositive(desiredAccuracy, "desired accuracy", unit: "metres")
            }
            if let minimumInterval {
                try InvalidServiceConfiguration.requireNonNegative(minimumInterval, "minimum interval", unit: "seconds")
            }
        }
    }

    public let configuration: Configuration
    private var lastDelivered: (coordinate: Coordinate, at: Timestamp)?
    private var lastSeen: Timestamp?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// What the service remembers between fixes, so that a caller can keep it across a restart.
    public var memory: ReportMemory {
        get { ReportMemory(last: lastDelivered, lastSeen: lastSeen) }
        set {
            lastDelivered = newValue.last
            lastSeen = newValue.lastSeen
        }
    }

    /// The fix, when it is to be delivered.
    public mutating func update(with fix: Fix, at now: Timestamp) -> Fix? {
        if let lastSeen, now < lastSeen { return nil }
        lastSeen = now
        if let desired = configuration.desiredAccuracy {
            guard let accuracy = fix.horizontalAccuracy, accuracy <= desired else { return nil }
        }
        if let last = lastDelivered {
            if let interval = configuration.minimumInterval, now - last.at < interval { return nil }
            if configuration.distanceFilter > 0,
               Geodesy.distance(last.coordinate, fix.coordinate) < configuration.distanceFilter { return nil }
        }
        lastDelivered = (fix.coordinate, now)
        return fix
    }
}
