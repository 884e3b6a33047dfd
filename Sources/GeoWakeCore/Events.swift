/// A change of a subscriber's relation to one region.
public struct RegionEvent: Hashable, Sendable {
    /// Declared in the contract's order within one fix: exit before enter before dwell.
    public enum Kind: Int, Comparable, Sendable, CaseIterable {
        case exit = 0
        case enter = 1
        case dwell = 2

        public var name: String {
            switch self {
            case .exit: "exit"
            case .enter: "enter"
            case .dwell: "dwell"
            }
        }

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    public var kind: Kind
    public var regionID: String
    /// The fix that decided the change.
    public var fix: Fix
    /// True when neither fix lay in the region but the straight segment between two fixes crossed it.
    public var crossed: Bool
    /// Why the event happened when it is not the device's movement; nil for movement.
    public var reason: Reason?

    /// A cause other than movement.
    public enum Reason: String, Hashable, Sendable, Codable {
        /// The region was removed from a running monitor while reported inside: its final `exit`.
        case regionRemoved
    }

    public init(kind: Kind, regionID: String, fix: Fix, crossed: Bool = false, reason: Reason? = nil) {
        self.kind = kind
        self.regionID = regionID
        self.fix = fix
        self.crossed = crossed
        self.reason = reason
    }

    /// Contract order within one fix: by kind, then by the byte order of the region id.
    public static func contractOrder(_ a: RegionEvent, _ b: RegionEvent) -> Bool {
        if a.kind != b.kind { return a.kind < b.kind }
        return a.regionID.utf8.lexicographicallyPrecedes(b.regionID.utf8)
    }
}

/// A place where the device stayed: arrival known, departure once it left.
public struct Visit: Hashable, Sendable {
    public var arrival: Timestamp
    public var departure: Timestamp?
    public var center: Coordinate
    /// Metres: the radius within which the device stayed.
    public var radius: Double

    public init(arrival: Timestamp, departure: Timestamp?, center: Coordinate, radius: Double) {
        self.arrival = arrival
        self.departure = departure
        self.center = center
        self.radius = radius
    }
}

/// A fix the standard location service delivers to its subscriber.
public struct LocationUpdate: Hashable, Sendable {
    public var fix: Fix

    public init(fix: Fix) { self.fix = fix }
}

/// A fix the significant-change service reports: the device moved far, a while after the last report.
public struct SignificantChange: Hashable, Sendable {
    public var fix: Fix

    public init(fix: Fix) { self.fix = fix }
}

/// The visit service's report: an arrival at a place, or the departure that closed the visit.
public struct VisitEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case arrival
        case departure
    }

    public var visit: Visit
    /// The instant the service reported it (after the minimum stay for an arrival, on leaving for a departure).
    public var reportedAt: Timestamp

    /// A departure once the visit has one, else an arrival.
    public var kind: Kind { visit.departure == nil ? .arrival : .departure }

    public init(visit: Visit, reportedAt: Timestamp) {
        self.visit = visit
        self.reportedAt = reportedAt
    }
}
