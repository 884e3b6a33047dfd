import GeoWakeCore

/// The replies of a few fields, typed as the requests are: `fields` is what the daemon sends, `init?(fields:)` the
/// library's reading of it (nil for a reply without what the protocol promises).

/// `hello`: the protocol the daemon speaks and the uid it saw on the socket.
public struct HelloReply: Hashable, Sendable {
    public var version: Int64
    public var uid: Int64

    public init(version: Int64, uid: Int64) {
        self.version = version
        self.uid = uid
    }

    public var fields: [String: JSONValue] { ["protocol": .integer(version), "uid": .integer(uid)] }

    public init?(fields: [String: JSONValue]) {
        guard let version = fields["protocol"]?.int64, let uid = fields["uid"]?.int64 else { return nil }
        self.init(version: version, uid: uid)
    }
}

/// `ack`: the highest sequence number acknowledged, and how many events the client still has to read.
public struct AckReply: Hashable, Sendable {
    public var acked: Int64
    public var pending: Int64

    public init(acked: Int64, pending: Int64) {
        self.acked = acked
        self.pending = pending
    }

    public var fields: [String: JSONValue] { ["acked": .integer(acked), "pending": .integer(pending)] }

    public init?(fields: [String: JSONValue]) {
        guard let acked = fields["acked"]?.int64, let pending = fields["pending"]?.int64 else { return nil }
        self.init(acked: acked, pending: pending)
    }
}

/// `monitor`: how many regions were added, and how many were left as they were (identical to one monitored already).
public struct MonitorReply: Hashable, Sendable {
    public var added: Int64
    public var unchanged: Int64

    public init(added: Int64, unchanged: Int64 = 0) {
        self.added = added
        self.unchanged = unchanged
    }

    /// `unchanged` is sent only when some were.
    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["added": .integer(added)]
        if unchanged > 0 { fields["unchanged"] = .integer(unchanged) }
        return fields
    }

    public init?(fields: [String: JSONValue]) {
        guard let added = fields["added"]?.int64 else { return nil }
        self.init(added: added, unchanged: fields["unchanged"]?.int64 ?? 0)
    }
}

/// `stopMonitoring`: the ids of the regions no longer monitored.
public struct StopMonitoringReply: Hashable, Sendable {
    public var removed: [String]

    public init(removed: [String]) { self.removed = removed }

    public var fields: [String: JSONValue] { ["removed": .array(removed.map(JSONValue.string))] }

    public init?(fields: [String: JSONValue]) {
        guard let array = fields["removed"]?.array, case let ids = array.compactMap(\.string), ids.count == array.count else { return nil }
        removed = ids
    }
}

/// `beginBackgroundTask`: the task's id, to end it with, and the seconds left of the process's budget (nil while
/// the process is in the foreground, when no budget runs).
public struct BackgroundTaskReply: Hashable, Sendable {
    public var task: Int64
    public var budgetLeft: Double?

    public init(task: Int64, budgetLeft: Double?) {
        self.task = task
        self.budgetLeft = budgetLeft
    }

    public var fields: [String: JSONValue] { ["task": .integer(task), "budgetLeft": budgetLeft.map(JSONValue.number) ?? .null] }

    public init?(fields: [String: JSONValue]) {
        guard let task = fields["task"]?.int64 else { return nil }
        self.init(task: task, budgetLeft: fields["budgetLeft"]?.double)
    }
}

/// A client's background fetch schedule, as the fetch replies and `status` show it.
public struct BackgroundFetchReply: Hashable, Sendable {
    /// The minimum interval the client asked for, seconds.
    public var minimumInterval: Double
    /// The current interval, stretched by `noData` and `failed` results.
    public var interval: Double
    public var running: Bool
    /// Fetches started so far.
    public var fetches: Int64
    /// Seconds until the next fetch may start; nil while one runs.
    public var nextIn: Double?
    public var lastResult: BackgroundFetchResult?

    public init(minimumInterval: Double, interval: Double, running: Bool, fetches: Int64, nextIn: Double?, lastResult: BackgroundFetchResult?) {
        (self.minimumInterval, self.interval, self.running, self.fetches) = (minimumInterval, interval, running, fetches)
        (self.nextIn, self.lastResult) = (nextIn, lastResult)
    }

    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["minimumInterval": .number(minimumInterval), "interval": .number(interval),
                                           "running": .bool(running), "fetches": .integer(fetches)]
        if let nextIn { fields["nextIn"] = .number(nextIn) }
        if let lastResult { fields["lastResult"] = .string(lastResult.rawValue) }
        return fields
    }

    public init?(fields: [String: JSONValue]) {
        guard let minimum = fields["minimumInterval"]?.double, let interval = fields["interval"]?.double else { return nil }
        self.init(minimumInterval: minimum, interval: interval, running: fields["running"]?.bool ?? false,
                  fetches: fields["fetches"]?.int64 ?? 0, nextIn: fields["nextIn"]?.double,
                  lastResult: fields["lastResult"]?.string.flatMap(BackgroundFetchResult.init(rawValue:)))
    }
}

/// `regionState`, and each region of a `list` page: a region's state and since when.
public struct RegionStateReply: Hashable, Sendable {
    public enum State: String, Hashable, Sendable {
        case inside, outside, unknown
    }

    public var region: String
    public var state: State
    /// When the state began, written as event times are (ISO 8601, UTC, milliseconds); nil while unknown.
    public var since: String?
    /// A beacon region's identity, and the advertisement format it matches (nil: either).
    public var beacon: BeaconIdentity?
    public var beaconFormat: String?

    public init(region: String, state: State, since: String? = nil, beacon: BeaconIdentity? = nil, beaconFormat: String? = nil) {
        (self.region, self.state, self.since, self.beacon, self.beaconFormat) = (region, state, since, beacon, beaconFormat)
    }

    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["region": .string(region), "state": .string(state.rawValue)]
        if let since { fields["since"] = .string(since) }
        if let beacon {
            var identity: [String: JSONValue] = ["uuid": .string(beacon.uuid)]
            if let major = beacon.major { identity["major"] = .integer(major) }
            if let minor = beacon.minor { identity["minor"] = .integer(minor) }
            if let beaconFormat { identity["format"] = .string(beaconFormat) }
            fields["beacon"] = .object(identity)
        }
        return fields
    }

    public init?(fields: [String: JSONValue]) {
        guard let region = fields["region"]?.string, let state = fields["state"]?.string.flatMap(State.init(rawValue:)) else { return nil }
        self.init(region: region, state: state, since: fields["since"]?.string)
        if let identity = fields["beacon"]?.object, let uuid = identity["uuid"]?.string {
            beacon = BeaconIdentity(uuid: uuid, major: identity["major"]?.int.flatMap(UInt16.init(exactly:)),
                                    minor: identity["minor"]?.int.flatMap(UInt16.init(exactly:)))
            beaconFormat = identity["format"]?.string
        }
    }
}
