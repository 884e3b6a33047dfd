/// The fix-fed services a client can start, by the name `list` gives them.
public enum ServiceKind: String, CaseIterable, Comparable, Hashable, Sendable {
    case standard, significant, visits

    public static func < (a: ServiceKind, b: ServiceKind) -> Bool { a.rawValue < b.rawValue }

    /// The request that starts it.
    public var startOp: String {
        switch self {
        case .standard: "startStandard"
        case .significant: "startSignificant"
        case .visits: "startVisits"
        }
    }
}

/// `startStandard`, `startSignificant` or `startVisits` with its options, as the library sends it and the daemon
/// reads it (and stores it again). An option left nil takes the daemon's default, `geowake replay`'s.
public enum ServiceRequest: Hashable, Sendable {
    /// Metres moved from the last delivered location; worst horizontal accuracy delivered; seconds between locations.
    case standard(distanceFilter: Double?, desiredAccuracy: Double?, minimumInterval: Double?)
    /// Metres from the last reported location; seconds between reports at least.
    case significant(distance: Double?, interval: Double?)
    /// Metres a stay spans at most; seconds it lasts at least.
    case visits(radius: Double?, minimumDuration: Double?)

    public var kind: ServiceKind {
        switch self {
        case .standard: .standard
        case .significant: .significant
        case .visits: .visits
        }
    }

    /// The request's fields besides `op`: the options given.
    public var fields: [String: JSONValue] {
        let options: [(String, Double?)] = switch self {
        case .standard(let distanceFilter, let desiredAccuracy, let minimumInterval):
            [("distanceFilter", distanceFilter), ("desiredAccuracy", desiredAccuracy), ("minimumInterval", minimumInterval)]
        case .significant(let distance, let interval): [("distance", distance), ("interval", interval)]
        case .visits(let radius, let minimumDuration): [("radius", radius), ("minimumDuration", minimumDuration)]
        }
        return Dictionary(uniqueKeysWithValues: options.compactMap { name, value in value.map { (name, JSONValue.number($0)) } })
    }

    /// The options of a `kind` start request; a value that is not a finite number (null is left out) names its field.
    public init(_ kind: ServiceKind, fields: [String: JSONValue]) throws(RequestError) {
        switch kind {
        case .standard:
            self = .standard(distanceFilter: try fields.number("distanceFilter"), desiredAccuracy: try fields.number("desiredAccuracy"),
                             minimumInterval: try fields.number("minimumInterval"))
        case .significant:
            self = .significant(distance: try fields.number("distance"), interval: try fields.number("interval"))
        case .visits:
            self = .visits(radius: try fields.number("radius"), minimumDuration: try fields.number("minimumDuration"))
        }
    }
}
