/// Why the daemon started or woke a client, passed to it as `GEOWAKE_LAUNCH_REASON`: one type for the daemon that
/// writes it and the library that reads it. A reason this side does not know yet is kept as it came.
public enum LaunchReason: Hashable, Sendable, Codable, CustomStringConvertible {
    case location, significantChange, region, visit, beacon
    case other(String)

    public static let known: [LaunchReason] = [.location, .significantChange, .region, .visit, .beacon]

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
        case .other(let value): value
        }
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
