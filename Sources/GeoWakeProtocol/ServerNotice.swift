import JSONLines

/// The daemon's messages that answer no request and carry no event. Written with `type` first, as ever.
public enum ServerNotice: Hashable, Sendable {
    /// The first line of every connection.
    case hello(protocol: Int, server: String, version: String)
    /// This launched or woken process's background time ends in `budgetLeft` seconds: end its background tasks.
    case expiring(budgetLeft: Double)
    /// A background fetch began: fetch, then report within `budgetLeft` seconds.
    case fetch(budgetLeft: Double)

    /// A server message that is one of these; nil for any other.
    public init?(message: JSONValue) {
        switch message["type"]?.string {
        case "hello":
            self = .hello(protocol: message["protocol"]?.int ?? 0, server: message["server"]?.string ?? "",
                          version: message["version"]?.string ?? "")
        case "expiring": self = .expiring(budgetLeft: message["budgetLeft"]?.double ?? 0)
        case "fetch": self = .fetch(budgetLeft: message["budgetLeft"]?.double ?? 0)
        default: return nil
        }
    }

    /// The line, newline included.
    public var line: [UInt8] {
        var line = JSONLineWriter(reservingCapacity: 96)
        line.beginObject()
        switch self {
        case .hello(let version, let server, let serverVersion):
            line.field("type", "hello")
            line.field("protocol", version)
            line.field("server", server)
            line.field("version", serverVersion)
        case .expiring(let budgetLeft):
            line.field("type", "expiring")
            line.field("budgetLeft", exactly: budgetLeft)
        case .fetch(let budgetLeft):
            line.field("type", "fetch")
            line.field("budgetLeft", exactly: budgetLeft)
        }
        line.endLine()
        return line.bytes
    }
}
