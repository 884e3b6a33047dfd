import GeoWakeCore
import GeoWakeProtocol
import Synchronization

/// A subscriber's handle on geowaked, in the manner of Core Location's `CLMonitor`: subscribe, then iterate
/// `events`. The connection is kept: when the daemon restarts, the manager reconnects with backoff and
/// registers again, and the daemon resends what was not acknowledged; the sequence drops what user code
/// already handled, so each event reaches the loop body once.
public final class LocationManager: Sendable {
    /// The id this process registered as, e.g. `org.example.parcel-tracker`: its subscriptions and events are
    /// kept under it (and this process's uid) across restarts of either side.
    public let clientID: String
    /// Why geowaked launched this process (`.region`, `.location`, …); nil when it was started by hand.
    public let launchReason: LaunchReason?
    /// The daemon's socket this manager connects to: the one given to `init`, else `GEOWAKE_SOCKET`, else the user
    /// daemon's if it exists, else the system daemon's (`SocketPath`).
    public let socketPath: String
    private let relaunch: Relaunch
    private let options: LaunchOptions
    /// Open background tasks and their expiration handlers, by task id.
    let backgroundTasks = Mutex<[Int: @Sendable () -> Void]>([:])
    let state = Mutex(State())
    private let stream: AsyncStream<LocationEvent>
    private let sink: AsyncStream<LocationEvent>.Continuation
    /// Ranging reports: a live stream beside `events`, neither stored nor acknowledged (see `BeaconRanging.swift`).
    let ranging = AsyncStream.makeStream(of: RangedBeacon.self, bufferingPolicy: .bufferingNewest(1024))
    /// The daemon's `fetch` messages (see `BackgroundFetch.swift`).
    let fetches = AsyncStream.makeStream(of: BackgroundFetch.self, bufferingPolicy: .bufferingNewest(16))
    /// Server messages that are neither replies nor events, for what the protocol grows (app state, budgets).
    private let otherMessages: @Sendable (JSONValue) -> Void

    struct State {
        var connection: DaemonConnection?
        var stopped = false
        /// The events whose loop body returned: anything at or below the last is a resend.
        var handled = HandledEvents()
        /// The event user code holds now: handled once its loop body returns.
        var inHand: EventNumber?
        /// One reconnect loop at a time; true during `init` too, whose own failure is thrown instead.
        var reconnecting = true
        /// Handled while no connection was up: an event of the new one can reach user code before the reconnect
        /// loop takes that connection, and its ack would be lost, so it is sent once the loop does.
        var owedAck: EventNumber?
    }

    /// Connects to geowaked and registers as `clientID`; returns once registered, and the backlog of events not yet
    /// handled starts arriving in `events`.
    /// - Parameters:
    ///   - clientID: 1–255 bytes of `A–Z a–z 0–9 . _ -`, conventionally reverse DNS.
    ///   - relaunch: `.executable(path)` lets the daemon launch this program for an event while it is not running
    ///     (`CommandLine.arguments[0]` is fine: a relative path is made absolute); `.never` only delivers while connected.
    ///   - options: whether a force-quit process is relaunched and whether location updates keep it running.
    ///   - socketPath: another daemon's socket; nil looks where `SocketPath.resolution` says.
    ///   - onOtherMessage: server messages that are neither replies nor events, on the connection's reader thread.
    /// - Throws: `GeoWakeError.noDaemon` when no daemon listens at any socket looked at (its message says how to start
    ///   one), `.connectionFailed` for a socket given here, `.rejected` when the daemon refuses the registration
    ///   (`clientBusy`, `clientDisabled`, `unsafeLaunch`, …).
    public init(clientID: String, relaunch: Relaunch = .never, options: LaunchOptions = LaunchOptions(),
                socketPath: String? = nil, onOtherMessage: @escaping @Sendable (JSONValue) -> Void = { _ in }) async throws {
        let environment = SocketPath.currentEnvironment()
        self.clientID = clientID
        self.relaunch = relaunch
        self.options = options
        let resolution = SocketPath.resolution(environment: environment)
        self.socketPath = socketPath ?? resolution.path
        launchReason = LaunchReason(environment: environment)
        otherMessages = onOtherMessage
        (stream, sink) = AsyncStream.makeStream(of: LocationEvent.self)
        let connection: DaemonConnection
        do {
            connection = try await connect()
        } catch let error as GeoWakeError where socketPath == nil {
            throw SocketPath.explain(error, tried: resolution.tried)
        }
        state.withLock { s in
            s.connection = connection
            s.reconnecting = false
        }
    }

    /// Backlog first, then live. An event counts as handled, and is acknowledged, when the loop body that
    /// received it returns: on the following `next()`, or, when the loop was left with `break`, at `stop()`.
    public var events: Events { Events(manager: self, stream: stream) }

    /// The events of `events`: an asynchronous sequence that ends when the manager is stopped.
    public struct Events: AsyncSequence, Sendable {
        let manager: LocationManager
        let stream: AsyncStream<LocationEvent>

        /// An iterator that acknowledges each event once the loop body that received it has returned.
        public func makeAsyncIterator() -> Iterator { Iterator(manager: manager, base: stream.makeAsyncIterator()) }

        /// Iterates `events`, dropping events the daemon resent though they were handled already.
        public struct Iterator: AsyncIteratorProtocol {
            let manager: LocationManager
            var base: AsyncStream<LocationEvent>.AsyncIterator

            /// Acknowledges the event handed out before, then waits for the next one not yet handled; nil once stopped.
            public mutating func next() async throws -> LocationEvent? {
                manager.bodyReturned()
                while let event = await base.next() {
                    let number = EventNumber(epoch: event.epoch, seq: event.seq)
                    if manager.isResend(number) { continue }
                    manager.state.withLock { $0.inHand = number }
                    return event
                }
                return nil
            }
        }
    }

    /// Starts monitoring `regions`, all or nothing: their `enter`, `exit` and `dwell` events arrive in `events` and
    /// wake or launch this client. Regions stay monitored across restarts of either side until `stopMonitoring`.
    /// - Throws: `GeoWakeError.rejected` with `duplicateRegion` for an id this client monitors already, `badGeoJSON` for
    ///   an invalid region, `tooManyRegions` past 10,000.
    public func monitor(_ regions: [Region]) async throws {
        _ = try await request("monitor", MonitorRequest(regions: .features(regions.map(\.feature))).fields)
    }

    /// Starts monitoring one region, as `monitor(_:)` with an array does.
    public func monitor(_ region: Region) async throws { try await monitor([region]) }

    /// Regions from a GeoJSON file the daemon reads as this process's user.
    public func monitor(file path: String) async throws {
        _ = try await request("monitor", MonitorRequest(regions: .file(path)).fields)
    }

    /// Stops monitoring these regions, all or nothing; a region the device is inside gets a last `exit` with reason
    /// `regionRemoved`, so nothing is left believed inside.
    /// - Throws: `GeoWakeError.rejected` with `unknownRegion` when an id is not monitored (nothing is removed then).
    public func stopMonitoring(_ regionIDs: [String]) async throws {
        _ = try await request("stopMonitoring", StopMonitoringRequest(regions: regionIDs).fields)
    }

    /// A region's state as the daemon decided it: `unknown` until a fix decides it (a beacon region starts outside).
    public enum RegionState: String, Sendable {
        /// The last deciding fix lay inside (for a beacon region: a matching beacon was seen lately).
        case inside
        /// The last deciding fix lay outside.
        case outside
        /// No fix has decided it yet.
        case unknown
    }

    /// The current state of one of this client's regions.
    /// - Throws: `GeoWakeError.rejected` with `unknownRegion` when the id is not monitored.
    public func state(of regionID: String) async throws -> RegionState {
        let result = try await request("regionState", RegionStateRequest(region: regionID).fields)
        guard let reply = result.object.flatMap(RegionStateReply.init(fields:)), let state = RegionState(rawValue: reply.state.rawValue) else {
            throw GeoWakeError.malformedReply("regionState without a known state")
        }
        return state
    }

    /// One of this client's monitored regions, as `monitoredRegions()` lists it.
    public struct MonitoredRegion: Hashable, Sendable {
        public var id: String
        public var state: RegionState
        /// When the region entered its state; nil while it is `unknown`.
        public var since: Timestamp?
        /// A beacon region's identity, its UUID in upper case as in events (nil for a geographic region).
        public var beacon: BeaconIdentity?
    }

    /// Every region this client monitors, geographic and beacon, in byte order of their ids, with its state (Core
    /// Location's `monitoredRegions`). Read page by page from the daemon, so any number of regions comes whole.
    public func monitoredRegions() async throws -> [MonitoredRegion] {
        var regions: [MonitoredRegion] = []
        var page = RegionPageRequest()
        while true {
            let result = try await request("list", page.fields)
            guard let reply = result.object.flatMap(RegionListReply.init(fields:)) else {
                throw GeoWakeError.malformedReply("list without subscriptions and regions")
            }
            for region in reply.regions {
                guard let state = RegionState(rawValue: region.state.rawValue) else {
                    throw GeoWakeError.malformedReply("list with region state \"\(region.state.rawValue)\"")
                }
                let beacon = region.beacon.map { BeaconIdentity(uuid: $0.uuid.uppercased(), major: $0.major, minor: $0.minor) }
                regions.append(MonitoredRegion(id: region.region, state: state, since: region.since.flatMap(Timestamp.init(iso8601:)),
                                               beacon: beacon))
            }
            guard reply.more, let last = reply.regions.last else { return regions }
            page.after = last.region
        }
    }

    /// Starts standard location updates: `.location` events for fixes at least `distanceFilter` metres from the last
    /// one delivered, and, when `desiredAccuracy` is given, no worse than that many metres. Calling it again replaces the
    /// options. With `LaunchOptions(locationInBackground: true)` a launched process is not suspended while they run.
    public func startUpdatingLocation(distanceFilter: Double = 0, desiredAccuracy: Double? = nil) async throws {
        try await start(.standard(distanceFilter: distanceFilter, desiredAccuracy: desiredAccuracy, minimumInterval: nil))
    }

    /// Stops standard location updates (nothing happens when they were not started).
    public func stopUpdatingLocation() async throws { _ = try await request("stopStandard") }

    /// Starts significant-change updates: a `.significantChange` event when the device is `distance` metres from the
    /// last one reported, at most one per `interval` seconds. They wake or launch this client, as region events do.
    public func startSignificantChanges(distance: Double = 500, interval: Double = 300) async throws {
        try await start(.significant(distance: distance, interval: interval))
    }

    /// Stops significant-change updates.
    public func stopSignificantChanges() async throws { _ = try await request("stopSignificant") }

    /// Starts visits: a `.visit` event on arriving at and leaving a place where the device stayed within `radius`
    /// metres for at least `minimumDuration` seconds.
    public func startVisits(radius: Double = 100, minimumDuration: Double = 300) async throws {
        try await start(.visits(radius: radius, minimumDuration: minimumDuration))
    }

    /// Stops visits.
    public func stopVisits() async throws { _ = try await request("stopVisits") }

    private func start(_ service: ServiceRequest) async throws {
        _ = try await request(service.kind.startOp, service.fields)
    }

    /// Any request of the protocol, on the current connection (waiting for a reconnect if the daemon is away).
    public func request(_ op: String, _ fields: [String: JSONValue] = [:], timeout: Double = 10) async throws -> JSONValue {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            let (connection, stopped) = state.withLock { ($0.connection, $0.stopped) }
            if stopped { throw GeoWakeError.closed }
            if let connection, !connection.isClosed {
                do {
                    return try await connection.request(op, fields, timeout: timeout)
                } catch GeoWakeError.connectionFailed where ContinuousClock.now < deadline {
                    // The daemon went away mid-request; the reconnect loop brings a new connection.
                }
            }
            guard ContinuousClock.now < deadline else { throw GeoWakeError.timedOut(request: op, seconds: timeout) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Ends the session: the event in hand is acknowledged, the connection closes and `events` finishes.
    /// Subscriptions stay with the daemon.
    public func stop() {
        bodyReturned()
        let connection = state.withLock { s in
            s.stopped = true
            return s.connection
        }
        connection?.close()
        sink.finish()
        ranging.continuation.finish()
        fetches.continuation.finish()
    }

    func bodyReturned() {
        let (number, connection) = state.withLock { s -> (EventNumber?, DaemonConnection?) in
            defer { s.inHand = nil }
            guard let number = s.inHand else { return (nil, nil) }
            s.handled.handled(number)
            if s.connection == nil { s.owedAck = number }
            return (number, s.connection)
        }
        // With the epoch, so the daemon never takes it for a later epoch's event of the same seq.
        if let number { connection?.post("ack", AckRequest(number).fields) }
    }

    func isResend(_ number: EventNumber) -> Bool {
        let (resend, connection) = state.withLock { ($0.handled.isResend(number), $0.connection) }
        // The daemon resent it because our ack was lost with the old connection: acknowledge it again (its own
        // seq: after a power cut the daemon's numbers may not reach the last one handled).
        if resend { connection?.post("ack", AckRequest(number).fields) }
        return resend
    }

    private func connect() async throws -> DaemonConnection {
        let connection = try await DaemonConnection(
            path: socketPath,
            onMessage: { [weak self, sink, ranging, fetches, otherMessages] message in
                if let event = LocationEvent(message: message) {
                    sink.yield(event)
                } else if let range = RangedBeacon(message: message) {
                    ranging.continuation.yield(range)
                } else if let fetch = BackgroundFetch(message: message) {
                    fetches.continuation.yield(fetch)
                } else if case .expiring? = ServerNotice(message: message) {
                    self?.backgroundTimeExpiring()
                } else {
                    otherMessages(message)
                }
            },
            onClose: { [weak self] in self?.connectionClosed() })
        // A daemon whose store lost this launch (a power cut) learns from launchReason that the process is its
        // background one.
        let launch = relaunch.launch
        let registration = RegisterRequest(client: clientID, launch: launch, options: launch == nil ? nil : options.fields,
                                           launchReason: launchReason)
        do {
            _ = try await connection.request("register", registration.fields)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private func connectionClosed() {
        let start = state.withLock { s in
            s.connection = nil
            defer { s.reconnecting = true }
            return !s.stopped && !s.reconnecting
        }
        if start { Task { await reconnect() } }
    }

    /// 50 ms, doubling to 2 s: quick after a daemon restart, gentle while it stays away.
    private func reconnect() async {
        var delay = 0.05
        while !state.withLock({ $0.stopped }) {
            if let connection = try? await connect() {
                let (stopped, owed) = state.withLock { s in
                    if !s.stopped { s.connection = connection }
                    s.reconnecting = false
                    defer { s.owedAck = nil }
                    return (s.stopped, s.owedAck)
                }
                if stopped {
                    connection.close()
                } else if let owed {
                    connection.post("ack", AckRequest(owed).fields)
                }
                return
            }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, 2)
        }
    }
}
