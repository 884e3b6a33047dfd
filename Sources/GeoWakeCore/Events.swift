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
