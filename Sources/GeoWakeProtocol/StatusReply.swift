/// `status`: the fix source, the beacon source when there is one, and the caller uid's clients. `clients` answers with
/// the clients alone (`ClientsReply`). Written by the daemon as these types say; a reader keeps what it does not know.
public struct StatusReply: Hashable, Sendable {
    /// The fix source: `description` (`gpsd://…`, `serial:…`, `trace:…`, `none`), its `state`, and the last fix.
    public struct Source: Hashable, Sendable {
        public var description: String
        public var state: String
        public var lastFix: LastFix?

        public init(description: String, state: String, lastFix: LastFix? = nil) {
            (self.description, self.state, self.lastFix) = (description, state, lastFix)
        }
    }

    public struct LastFix: Hashable, Sendable {
        public var latitude: Double
        public var longitude: Double
        /// Written as event times are; nil for a fix without a time.
        public var time: String?
        public var horizontalAccuracy: Double?

        public init(latitude: Double, longitude: Double, time: String? = nil, horizontalAccuracy: Double? = nil) {
            (self.latitude, self.longitude, self.time, self.horizontalAccuracy) = (latitude, longitude, time, horizontalAccuracy)
        }

        var fields: [String: JSONValue] {
            var fields: [String: JSONValue] = ["lat": .number(latitude), "lon": .number(longitude)]
            if let time { fields["time"] = .string(time) }
            if let horizontalAccuracy { fields["hAcc"] = .number(horizontalAccuracy) }
            return fields
        }
    }

    /// The beacon source: `description`, `state`, why when it is `unavailable` or `ended`, and the last sighting.
    public struct BeaconSource: Hashable, Sendable {
        public var description: String
        public var state: String
        public var message: String?
        public var lastSighting: Sighting?

        public init(description: String, state: String, message: String? = nil, lastSighting: Sighting? = nil) {
            (self.description, self.state, self.message, self.lastSighting) = (description, state, message, lastSighting)
        }
    }

    public struct Sighting: Hashable, Sendable {
        public var time: String
        public var uuid: String
        public var major: Int64
        public var minor: Int64
        public var rssi: Int64

        public init(time: String, uuid: String, major: Int64, minor: Int64, rssi: Int64) {
            (self.time, self.uuid, self.major, self.minor, self.rssi) = (time, uuid, major, minor, rssi)
        }
    }

    public var source: Source
    public var beaconSource: BeaconSource?
    public var clients: [ClientStatus]

    public init(source: Source, beaconSource: BeaconSource? = nil, clients: [ClientStatus]) {
        (self.source, self.beaconSource, self.clients) = (source, beaconSource, clients)
    }

    public var fields: [String: JSONValue] {
        var source: [String: JSONValue] = ["description": .string(self.source.description), "state": .string(self.source.state)]
        if let fix = self.source.lastFix { source["lastFix"] = .object(fix.fields) }
        var fields: [String: JSONValue] = ["source": .object(source), "clients": ClientsReply(clients: clients).fields["clients"]!]
        if let beacons = beaconSource {
            var status: [String: JSONValue] = ["description": .string(beacons.description), "state": .string(beacons.state)]
            if let message = beacons.message { status["message"] = .string(message) }
            if let sighting = beacons.lastSighting {
                status["lastSighting"] = ["time": .string(sighting.time), "uuid": .string(sighting.uuid), "major": .integer(sighting.major),
                                          "minor": .integer(sighting.minor), "rssi": .integer(sighting.rssi)]
            }
            fields["beaconSource"] = .object(status)
        }
        return fields
    }
}

/// `clients`: the caller uid's clients, sorted by id.
public struct ClientsReply: Hashable, Sendable {
    public var clients: [ClientStatus]

    public init(clients: [ClientStatus]) { self.clients = clients }

    public var fields: [String: JSONValue] { ["clients": .array(clients.map { .object($0.fields) })] }
}

/// One client in `status` and `clients`: its outbox, regions and subscriptions, and its app as the launcher sees it.
public struct ClientStatus: Hashable, Sendable {
    public var client: String
    public var connected: Bool
    public var disabled: Bool
    public var pending: Int64
    public var lastSeq: Int64
    /// Geographic and beacon regions.
    public var regions: Int64
    /// Sorted: `regions`, `standard`, `significant`, `visits`, `ranging` as they run.
    public var subscriptions: [String]
    /// Nil from a daemon that launches nothing.
    public var app: AppStatus?

    public init(client: String, connected: Bool, disabled: Bool, pending: Int64, lastSeq: Int64, regions: Int64,
                subscriptions: [String], app: AppStatus? = nil) {
        (self.client, self.connected, self.disabled, self.pending, self.lastSeq) = (client, connected, disabled, pending, lastSeq)
        (self.regions, self.subscriptions, self.app) = (regions, subscriptions, app)
    }

    /// The app's fields sit beside the client's, in one object.
    public var fields: [String: JSONValue] {
        let fields: [String: JSONValue] = [
            "client": .string(client), "connected": .bool(connected), "disabled": .bool(disabled), "pending": .integer(pending),
            "lastSeq": .integer(lastSeq), "regions": .integer(regions), "subscriptions": .array(subscriptions.map(JSONValue.string)),
        ]
        return fields.merging(app?.fields ?? [:]) { client, _ in client }
    }
}

/// A client's app as the launcher sees it (see "status" in docs/protocol.md for each field).
public struct AppStatus: Hashable, Sendable {
    /// `notRunning`, `running`, `background`, `suspended`, `terminating`, `crashLoop`.
    public var state: String
    public var pid: Int64?
    /// Seconds, while on a budget.
    public var budgetLeft: Double?
    public var backgroundTasks: Int64
    public var lastLaunchReason: LaunchReason?
    /// `"exited 3"`, `"killed by signal 9"`.
    public var lastExit: String?
    /// `location`, `bluetooth-central`.
    public var backgroundModes: [String]
    public var backgroundLocation: Bool
    public var exitsOnSuspend: Bool
    public var relaunchAfterForceQuit: Bool
    public var crashes: Int64
    /// Seconds until a crash-looping client may be launched again.
    public var backoff: Double?
    public var backgroundFetch: BackgroundFetchReply?

    public init(state: String, pid: Int64? = nil, budgetLeft: Double? = nil, backgroundTasks: Int64 = 0, lastLaunchReason: LaunchReason? = nil,
                lastExit: String? = nil, backgroundModes: [String] = [], backgroundLocation: Bool = false, exitsOnSuspend: Bool = false,
                relaunchAfterForceQuit: Bool = false, crashes: Int64 = 0, backoff: Double? = nil, backgroundFetch: BackgroundFetchReply? = nil) {
        (self.state, self.pid, self.budgetLeft, self.backgroundTasks, self.lastLaunchReason) = (state, pid, budgetLeft, backgroundTasks, lastLaunchReason)
        (self.lastExit, self.backgroundModes, self.backgroundLocation, self.exitsOnSuspend) = (lastExit, backgroundModes, backgroundLocation, exitsOnSuspend)
        (self.relaunchAfterForceQuit, self.crashes, self.backoff, self.backgroundFetch) = (relaunchAfterForceQuit, crashes, backoff, backgroundFetch)
    }

    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "app": .string(state), "relaunchAfterForceQuit": .bool(relaunchAfterForceQuit),
            "backgroundModes": .array(backgroundModes.map(JSONValue.string)), "exitsOnSuspend": .bool(exitsOnSuspend),
            "backgroundLocation": .bool(backgroundLocation), "crashes": .integer(crashes), "backgroundTasks": .integer(backgroundTasks),
        ]
        if let pid { fields["pid"] = .integer(pid) }
        if let budgetLeft { fields["budgetLeft"] = .number(budgetLeft) }
        if let lastLaunchReason { fields["lastLaunchReason"] = .string(lastLaunchReason.rawValue) }
        if let lastExit { fields["lastExit"] = .string(lastExit) }
        if let backoff { fields["backoff"] = .number(backoff) }
        if let backgroundFetch { fields["backgroundFetch"] = .object(backgroundFetch.fields) }
        return fields
    }
}
