import GeoWakeCore

/// The visits service: places where the device stayed, reported on arrival and again on departure.
///
/// Stay-point detection (Li et al., 2008): a stay begins at a fix, its anchor, and goes on while the fixes lie
/// within `radius` of the anchor. Once it has lasted `minimumDuration`, an arrival is reported (`departure`
/// nil); the first fix beyond the radius ends it and, if it had arrived, reports the departure, whose time is
/// the last fix seen inside. The reported centre is the mean of the stay's fixes. A gap in fixes is not a
/// departure: only a fix outside ends a stay. Fixes less accurate than the radius cannot tell inside from
/// outside and are ignored, as are fixes whose `now` is earlier than the previous fix's.
public struct VisitDetector: Sendable {
    public struct Configuration: Hashable, Sendable {
        /// Metres from where the stay began.
        public var radius: Double
        /// Seconds of staying before an arrival is reported.
        public var minimumDuration: Double

        public init(radius: Double = 100, minimumDuration: Double = 300) {
            self.radius = radius
            self.minimumDuration = minimumDuration
        }

        public func validate() throws(InvalidServiceConfiguration) {
            try InvalidServiceConfiguration.requirePositive(radius, "visit radius", unit: "metres")
            try InvalidServiceConfiguration.requireNonNegative(minimumDuration, "visit duration", unit: "seconds")
        }
    }

    /// One stay, its centre accumulated as a mean of offsets from the anchor so that it holds across the antimeridian.
    private struct Stay: Sendable, Equatable {
        let anchor: Coordinate
        let arrival: Timestamp
        var lastInside: Timestamp
        var latitudeOffsets = 0.0
        var longitudeOffsets = 0.0
        var count = 0
        var hasArrived = false

        init(anchor: Coordinate, at now: Timestamp) {
            self.anchor = anchor
            self.arrival = now
            self.lastInside = now
            add(anchor, at: now)
        }

        mutating func add(_ point: Coordinate, at now: Timestamp) {
            latitudeOffsets += point.latitude - anchor.latitude
            longitudeOffsets += Geodesy.normalizedLongitudeDelta(point.longitude - anchor.longitude)
            count += 1
            lastInside = now
        }

        var center: Coordinate {
            let n = Double(count)
            return Coordinate(latitude: anchor.latitude + latitudeOffsets / n,
                              longitude: Geodesy.normalizedLongitudeDelta(anchor.longitude + longitudeOffsets / n))
        }
    }

    public let configuration: Configuration
    private var stay: Stay?
    private var lastSeen: Timestamp?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// What the detector remembers between fixes, so that a caller can keep it across a restart.
    public struct Memory: Codable, Equatable, Sendable {
        public struct Stay: Codable, Equatable, Sendable {
            public var anchorLatitude, anchorLongitude: Double
            public var arrival, lastInside: Timestamp
            public var latitudeOffsets, longitudeOffsets: Double
            public var count: Int
            public var hasArrived: Bool

            public init(anchorLatitude: Double, anchorLongitude: Double, arrival: Timestamp, lastInside: Timestamp,
                        latitudeOffsets: Double, longitudeOffsets: Double, count: Int, hasArrived: Bool) {
                (self.anchorLatitude, self.anchorLongitude, self.arrival, self.lastInside) =
                    (anchorLatitude, anchorLongitude, arrival, lastInside)
                (self.latitudeOffsets, self.longitudeOffsets, self.count, self.hasArrived) =
                    (latitudeOffsets, longitudeOffsets, count, hasArrived)
            }
        }

        public var stay: Stay?
        public var lastSeen: Timestamp?

        public init(stay: Stay?, lastSeen: Timestamp?) {
            self.stay = stay
            self.lastSeen = lastSeen
        }
    }

    public var memory: Memory {
        get {
            Memory(stay: stay.map {
                Memory.Stay(anchorLatitude: $0.anchor.latitude, anchorLongitude: $0.anchor.longitude, arrival: $0.arrival,
                            lastInside: $0.lastInside, latitudeOffsets: $0.latitudeOffsets,
                            longitudeOffsets: $0.longitudeOffsets, count: $0.count, hasArrived: $0.hasArrived)
            }, lastSeen: lastSeen)
        }
        set {
            stay = newValue.stay.map {
                var stay = Stay(anchor: Coordinate(latitude: $0.anchorLatitude, longitude: $0.anchorLongitude), at: $0.arrival)
                stay.lastInside = $0.lastInside
                stay.latitudeOffsets = $0.latitudeOffsets
                stay.longitudeOffsets = $0.longitudeOffsets
                stay.count = $0.count
                stay.hasArrived = $0.hasArrived
                return stay
            }
            lastSeen = newValue.lastSeen
        }
    }

    /// The visit currently reported as arrived, if any.
    public var currentVisit: Visit? {
        guard let stay, stay.hasArrived else { return nil }
        return Visit(arrival: stay.arrival, departure: nil, center: stay.center, radius: configuration.radius)
    }

    /// Arrivals (departure nil) and departures caused by this fix, in time order: at most a departure and then,
    /// with a zero minimum duration, the next arrival.
    public mutating func update(with fix: Fix, at now: Timestamp) -> [Visit] {
        if let lastSeen, now < lastSeen { return [] }
        lastSeen = now
        if let accuracy = fix.horizontalAccuracy, accuracy > configuration.radius { return [] }
        var visits: [Visit] = []
        if var current = stay, Geodesy.localDistance(current.anchor, fix.coordinate) <= configuration.radius {
            current.add(fix.coordinate, at: now)
            stay = current
        } else {
            if let ended = stay, ended.hasArrived {
                visits.append(Visit(arrival: ended.arrival, departure: ended.lastInside, center: ended.center,
                                    radius: configuration.radius))
            }
            stay = Stay(anchor: fix.coordinate, at: now)
        }
        if var current = stay, !current.hasArrived, now - current.arrival >= configuration.minimumDuration {
            current.hasArrived = true
            stay = current
            visits.append(Visit(arrival: current.arrival, departure: nil, center: current.center,
                                radius: configuration.radius))
        }
        return visits
    }
}
