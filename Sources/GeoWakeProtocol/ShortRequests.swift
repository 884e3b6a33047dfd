/// The requests of one field, typed as `RegisterRequest` and `MonitorRequest` are: `fields` is what the library sends,
/// `init(fields:)` is the daemon's reading of it, each fault a `badRequest` naming the field.

/// `hello`: the first request of a connection, naming the protocol version the client speaks.
public struct HelloRequest: Hashable, Sendable {
    public var version: Int64

    public init(version: Int64) { self.version = version }

    public var fields: [String: JSONValue] { ["protocol": .integer(version)] }

    /// `client`, free text naming the client's library, is optional but must be a string when given.
    public init(fields: [String: JSONValue]) throws(RequestError) {
        version = try fields.integer("protocol")
        if let client = fields.given("client"), client.string == nil { throw .badRequest("\"client\" must be a string") }
    }
}

/// `stopMonitoring`: the ids of regions to stop monitoring, geographic or beacon.
public struct StopMonitoringRequest: Hashable, Sendable {
    public var regions: [String]

    public init(regions: [String]) { self.regions = regions }

    public var fields: [String: JSONValue] { ["regions": .array(regions.map(JSONValue.string))] }

    public init(fields: [String: JSONValue]) throws(RequestError) {
        guard let array = fields["regions"]?.array, case let ids = array.compactMap(\.string), ids.count == array.count else {
            throw .badRequest("\"regions\" must be an array of strings")
        }
        regions = ids
    }
}

/// `regionState`: one monitored region's state.
public struct RegionStateRequest: Hashable, Sendable {
    public var region: String

    public init(region: String) { self.region = region }

    public var fields: [String: JSONValue] { ["region": .string(region)] }

    public init(fields: [String: JSONValue]) throws(RequestError) {
        guard case .string(let region) = fields["region"] else { throw .badRequest("\"region\" must be a string") }
        self.region = region
    }
}

/// `endBackgroundTask`: the task `beginBackgroundTask` granted.
public struct EndBackgroundTaskRequest: Hashable, Sendable {
    public var task: Int64

    public init(task: Int64) { self.task = task }

    public var fields: [String: JSONValue] { ["task": .integer(task)] }

    public init(fields: [String: JSONValue]) throws(RequestError) { task = try fields.integer("task") }
}

/// `setBackgroundFetch`: the minimum seconds between fetches, or nil (null) to stop them.
public struct SetBackgroundFetchRequest: Hashable, Sendable {
    public var minimumInterval: Double?

    /// What the daemon accepts: a second to a week.
    public static let allowedMinimum: ClosedRange<Double> = 1...604_800

    public init(minimumInterval: Double?) { self.minimumInterval = minimumInterval }

    public var fields: [String: JSONValue] { ["minimumInterval": minimumInterval.map(JSONValue.number) ?? .null] }

    public init(fields: [String: JSONValue]) throws(RequestError) {
        guard let value = fields.given("minimumInterval") else { return }
        let range = Self.allowedMinimum
        guard case .number(let seconds) = value, range.contains(seconds) else {
            throw .badRequest("\"minimumInterval\" must be a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), or null")
        }
        minimumInterval = seconds
    }
}

/// `completeBackgroundFetch`: what the fetch found.
public struct CompleteBackgroundFetchRequest: Hashable, Sendable {
    public var result: BackgroundFetchResult

    public init(result: BackgroundFetchResult) { self.result = result }

    public var fields: [String: JSONValue] { ["result": .string(result.rawValue)] }

    public init(fields: [String: JSONValue]) throws(RequestError) {
        guard let result = fields["result"]?.string.flatMap(BackgroundFetchResult.init(rawValue:)) else {
            throw .badRequest("\"result\" must be \"newData\", \"noData\" or \"failed\"")
        }
        self.result = result
    }
}

/// A page of `list` or `subscriptions`: the regions after `after` (byte order of their ids), at most `limit` of them.
public struct RegionPageRequest: Hashable, Sendable {
    public var after: String?
    public var limit: Int?

    /// The most regions a page holds, and the default.
    public static let maximumLimit = 1_000

    public init(after: String? = nil, limit: Int? = nil) {
        self.after = after
        self.limit = limit
    }

    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        if let after { fields["after"] = .string(after) }
        if let limit { fields["limit"] = .integer(Int64(limit)) }
        return fields
    }

    public init(fields: [String: JSONValue]) throws(RequestError) {
        if fields["limit"] != nil {
            let given = try fields.integer("limit")
            guard (1...Int64(Self.maximumLimit)).contains(given) else {
                throw .badRequest("\"limit\" must be an integer from 1 to \(Self.maximumLimit)")
            }
            limit = Int(given)
        }
        if let value = fields["after"] {
            guard case .string(let after) = value else { throw .badRequest("\"after\" must be a string") }
            self.after = after
        }
    }
}
