/// Why the daemon started or woke a client, passed to it as `GEOWAKE_LAUNCH_REASON`: one type for the daemon that
/// writes it and the library that reads it. A reason this side does not know yet is kept as it came.
public enum LaunchReason: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A standard location update.
    case location
    /// A significant-change update.
    case significantChange
    /// A region's `enter`, `exit` or `dwell`.
    case region
    /// A visit's arrival or departure.
    case visit
    /// A beacon region's `enter` or `exit`.
    case beacon
    /// A background fetch came due (`setBackgroundFetch`); not an event: the process gets a `fetch` message.
    case fetch
    /// A reason this side does not know yet, as the daemon wrote it.
    case other(String)

    /// Every reason this side knows, in the order of docs/protocol.md.
    public static let known: [LaunchReason] = [.location, .significantChange, .region, .visit, .beacon, .fetch]

    /// The reason written `rawValue`; an unknown one is kept as `.other`.
    public init(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .other(rawValue)
    }

    /// As it goes into the environment and `status`.
    public var rawValue: String {
        switch self {
        case .location: "location"
        case .significantChange: "significant-change"
        case .region: "region"
        case .visit: "visit"
        case .beacon: "beacon"
        case .fetch: "fetch"
        case .other(let value): value
        }
    }

    /// The same as `rawValue`.
    public var description: String { rawValue }

    /// Reads the reason from its string form.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Writes the reason as its string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
