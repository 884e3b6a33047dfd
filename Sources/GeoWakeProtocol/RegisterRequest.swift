/// `register`: who the client is, how the daemon launches it, and, from a process the daemon launched, what for. The
/// library sends it; the daemon reads it with the protocol's own checks, each answered with its error code.
public struct RegisterRequest: Hashable, Sendable {
    /// 1–255 bytes of `A–Z a–z 0–9 . _ -`, conventionally reverse DNS.
    public var client: String
    /// The argv that launches the client: an absolute `launch[0]`, at most 64 elements of at most 4,096 bytes.
    public var launch: [String]?
    /// For the launcher, stored as given (at most 64 KiB): `relaunchAfterForceQuit`, `backgroundModes`, `exitsOnSuspend`.
    public var options: [String: JSONValue]?
    /// The reason the daemon gave the process it launched (`GEOWAKE_LAUNCH_REASON`); nil when started by hand.
    public var launchReason: LaunchReason?

    public init(client: String, launch: [String]? = nil, options: [String: JSONValue]? = nil, launchReason: LaunchReason? = nil) {
        self.client = client
        self.launch = launch
        self.options = options
        self.launchReason = launchReason
    }

    public static let maximumOptionsBytes = 65_536

    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["client": .string(client)]
        if let launch { fields["launch"] = .array(launch.map(JSONValue.string)) }
        if let options { fields["options"] = .object(options) }
        if let launchReason { fields["launchReason"] = .string(launchReason.rawValue) }
        return fields
    }

    /// The request as sent; its checks in the order the daemon has always made them.
    public init(fields: [String: JSONValue]) throws(RequestError) {
        guard case .string(let client) = fields["client"] else { throw .badRequest("\"client\" must be a string") }
        let allowed = client.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
        guard (1...255).contains(client.utf8.count), allowed else {
            throw RequestError(.invalidClientID, "client id must be 1-255 bytes of A-Z a-z 0-9 . _ -")
        }
        self.client = client
        if let launch = fields["launch"] {
            let elements = launch.array ?? []
            let argv = elements.compactMap(\.string)
            guard launch.array != nil, argv.count == elements.count, let first = argv.first, first.hasPrefix("/"), argv.count <= 64,
                  argv.allSatisfy({ $0.utf8.count <= 4096 }) else {
                throw RequestError(.invalidLaunch, "launch must be an array of at most 64 strings of at most 4096 bytes each, the first an absolute path")
            }
            self.launch = argv
        }
        if let options = fields["options"] {
            guard let object = options.object, options.line.count <= Self.maximumOptionsBytes else {
                throw .badRequest("\"options\" must be an object of at most 64 KiB")
            }
            self.options = object
        }
        if let value = fields["launchReason"] {
            guard let reason = value.string, !reason.isEmpty, reason.utf8.count <= 64 else {
                throw .badRequest("\"launchReason\" must be the launch reason the process was started with")
            }
            launchReason = LaunchReason(rawValue: reason)
        }
    }
}
