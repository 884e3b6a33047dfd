/// The stable error codes of docs/protocol.md, one type for the daemon that sends them and the clients that match
/// them. A code this side does not know yet (a newer daemon's) is kept as it came.
public enum ErrorCode: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The line is not a JSON object.
    case badJSON
    /// The line exceeded 1 MiB; the connection is closed.
    case messageTooLarge
    /// A field is missing, of the wrong type or out of range; the message names it.
    case badRequest
    /// `op` is not a request the daemon knows.
    case unknownOp
    /// A request came before `hello`.
    case helloRequired
    /// `hello` named a protocol version the daemon does not speak; the connection is closed.
    case protocolMismatch
    /// A request that needs `register` came before it.
    case notRegistered
    /// A second `register` on one connection.
    case alreadyRegistered
    /// The client id is empty, too long, or has other characters than `A–Z a–z 0–9 . _ -`.
    case invalidClientID
    /// `launch` is not an array of strings with an absolute first element, or is too long.
    case invalidLaunch
    /// The client is disabled (`geowake disable`).
    case clientDisabled
    /// Another connection, of a process the user started, is registered as this client.
    case clientBusy
    /// No such client for the caller's uid.
    case unknownClient
    /// The uid has 1,000 clients already.
    case tooManyClients
    /// A region could not be read; the message names it and why.
    case badGeoJSON
    /// The `file` could not be read as the client's uid.
    case fileUnreadable
    /// A region id the client monitors already, with another feature (or twice in one request).
    case duplicateRegion
    /// A region id the client does not monitor.
    case unknownRegion
    /// The client's 10,000-region limit.
    case tooManyRegions
    /// The `launch` command could be replaced by another user, or is not an executable file.
    case unsafeLaunch
    /// `beginBackgroundTask` for a client that is not running.
    case notRunning
    /// `endBackgroundTask` with an id that is not open.
    case unknownTask
    /// `completeBackgroundFetch` while no fetch of the client runs.
    case noFetch
    /// Background tasks or fetch on a daemon embedded without a launcher.
    case unsupported
    /// The daemon failed (e.g. the store could not be written); the request had no effect.
    case `internal`
    /// A code this side does not know yet, as it came.
    case other(String)

    /// Every code this side knows, in the order of docs/protocol.md.
    public static let known: [ErrorCode] = [
        .badJSON, .messageTooLarge, .badRequest, .unknownOp, .helloRequired, .protocolMismatch, .notRegistered,
        .alreadyRegistered, .invalidClientID, .invalidLaunch, .clientDisabled, .clientBusy, .unknownClient, .tooManyClients,
        .badGeoJSON, .fileUnreadable, .duplicateRegion, .unknownRegion, .tooManyRegions, .unsafeLaunch, .notRunning,
        .unknownTask, .noFetch, .unsupported, .internal,
    ]

    private static let byName: [String: ErrorCode] = Dictionary(uniqueKeysWithValues: known.map { ($0.rawValue, $0) })

    /// The code written `rawValue`; an unknown one is kept as `.other`.
    public init(rawValue: String) {
        self = Self.byName[rawValue] ?? .other(rawValue)
    }

    /// `"duplicateRegion"` as `.duplicateRegion`, for matching.
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

    /// The same as `rawValue`.
    public var description: String { rawValue }
}
