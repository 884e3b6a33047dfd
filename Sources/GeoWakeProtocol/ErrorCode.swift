/// The stable error codes of docs/protocol.md, one type for the daemon that sends them and the clients that match
/// them. A code this side does not know yet (a newer daemon's) is kept as it came.
public enum ErrorCode: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    case badJSON, messageTooLarge, badRequest, unknownOp, helloRequired, protocolMismatch, notRegistered
    case alreadyRegistered, invalidClientID, invalidLaunch, clientDisabled, clientBusy, unknownClient, tooManyClients
    case badGeoJSON, fileUnreadable, duplicateRegion, unknownRegion, tooManyRegions, unsafeLaunch, notRunning
    case unknownTask, noFetch, unsupported, `internal`
    case other(String)

    public static let known: [ErrorCode] = [
        .badJSON, .messageTooLarge, .badRequest, .unknownOp, .helloRequired, .protocolMismatch, .notRegistered,
        .alreadyRegistered, .invalidClientID, .invalidLaunch, .clientDisabled, .clientBusy, .unknownClient, .tooManyClients,
        .badGeoJSON, .fileUnreadable, .duplicateRegion, .unknownRegion, .tooManyRegions, .unsafeLaunch, .notRunning,
        .unknownTask, .noFetch, .unsupported, .internal,
    ]

    private static let byName: [String: ErrorCode] = Dictionary(uniqueKeysWithValues: known.map { ($0.rawValue, $0) })

    public init(rawValue: String) {
        self = Self.byName[rawValue] ?? .other(rawValue)
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The code as it goes on the wire.
    public var rawValue: String {
        switch self {
        case .badJSON: "badJSON"
        case .messageTooLarge: "messageTooLarge"
        case .badRequest: "badRequest"
        case .unknownOp: "unknownOp"
        case .helloRequired: "helloRequired"
        case .protocolMismatch: "protocolMismatch"
        case .notRegistered: "notRegistered"
        case .alreadyRegistered: "alreadyRegistered"
        case .invalidClientID: "invalidClientID"
        case .invalidLaunch: "invalidLaunch"
        case .clientDisabled: "clientDisabled"
        case .clientBusy: "clientBusy"
        case .unknownClient: "unknownClient"
        case .tooManyClients: "tooManyClients"
        case .badGeoJSON: "badGeoJSON"
        case .fileUnreadable: "fileUnreadable"
        case .duplicateRegion: "duplicateRegion"
        case .unknownRegion: "unknownRegion"
        case .tooManyRegions: "tooManyRegions"
        case .unsafeLaunch: "unsafeLaunch"
        case .notRunning: "notRunning"
        case .unknownTask: "unknownTask"
        case .noFetch: "noFetch"
        case .unsupported: "unsupported"
        case .internal: "internal"
        case .other(let code): code
        }
    }

    public var description: String { rawValue }
}
