import Beacons
import Foundation
import GeoWakeCore
import Geofencing
import GeoWakeProtocol
import Logging

/// The daemon's loop: one thread polls the listening socket, every connection, the sources and the launcher, so
/// requests, fixes and deliveries never race. It reads the clocks, hands each input to the decisions (`DaemonCore`)
/// with the times it was taken at, and carries out the effects they return (`ConnectionEffects`, `StoreBatch`): it
/// holds the sockets, the sources and the launcher, and decides nothing itself.
public final class Daemon {
    public static let protocolVersion = 1
    public static let version = "0.1.0"

    let paths: DaemonPaths
    public let store: DaemonStore
    let logger: Logger
    let activation: ClientActivation
    let clock: DaemonClock
    /// The trace, gpsd or serial receiver the fixes come from; none for a daemon that serves beacons alone.
    var source: FixSource?
    let beaconSource: BeaconSource?
    let core: DaemonCore
    /// The loop's sockets, by the id the decisions know each connection by.
    var connections: [ConnectionID: Connection] = [:]
    private var lastConnectionSerial: UInt64 = 0
    /// When the last `store` effect's writes were done and committed: the fix's latency marks.
    var commitMarks: (written: Double, committed: Double) = (0, 0)
    var listener: Int32 = -1
    /// Every connection reads into this one buffer.
    var readChunk = [UInt8](repeating: 0, count: 65536)
    /// `stop()` writes a byte here; the loop polls the read end.
    private var stopPipe: [Int32] = [-1, -1]
    /// Signalled when a large line read aside is ready (`LinePreparation`).
    private let prepared = WakePipe()

    public init(paths: DaemonPaths, trace: String?, speed: Double, durability: DaemonStore.Durability,
                activation: ClientActivation = NoClientActivation(), logger: Logger,
                live: String? = nil, baudRate: Int = 4800, health: SourceHealth.Limits = .init(),
                limits: DaemonLimits = .init(), regionRules: RegionMonitorConfiguration = .init(),
                beaconSource: String? = nil, beaconExitTimeout: Double = 30, restartTrace: Bool = false,
                clock: DaemonClock = .system) throws {
        self.paths = paths
        self.clock = clock
        self.logger = logger
        self.activation = activation
        self.beaconSource = try beaconSource.map { argument throws(ProtocolError) in try BeaconSource(argument, speed: speed, wall: clock.wall) }
        source = try live.map { argument throws(ProtocolError) in try FixSource(live: argument, baudRate: baudRate) }
        for path in [paths.socket, paths.state] {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        store = try DaemonStore(path: paths.state, durability: durability)
        if let trace {
            var replayed = try FixSource(trace: trace, speed: speed)
            // A trace resumes after its last processed fix; `restartTrace` replays it from its first.
            replayed.resume(after: restartTrace ? -1 : try store.sourcePosition(replayed.description))
            source = replayed
            // The services remember the latest fix time they saw: replayed again, the trace would go back in time
            // for them and be ignored, so they start afresh.
            if restartTrace { try store.forgetServiceMemories() }
        }
        let beacons = DaemonBeacons(sourceDescription: self.beaconSource?.description, exitTimeout: beaconExitTimeout)
        if let key = beacons.positionKey { self.beaconSource!.position = try store.sourcePosition(key) }
        core = try DaemonCore(paths: paths, store: store, logger: logger, activation: activation, limits: limits, health: health,
                              regionRules: regionRules, beacons: beacons, source: source?.facts)
        pipe(&stopPipe)
    }

    /// Serves on the calling thread until `stop()`; `serve()` runs it under swift-service-lifecycle.
    public func run() throws {
        try listen()
        begin()
        while try turn() {}
        end()
    }

    /// Before the first turn: the launcher adopts what the store says.
    public func begin() {
        activation.start(self)
        signal(SIGPIPE, SIG_IGN)
        logger.info("geowaked listening", metadata: ["socket": "\(paths.socket)", "state": "\(paths.state)"])
    }

    /// One turn of the loop: waits for input until the next deadline (not at all when `waiting` is false, as the
    /// simulator runs it), then takes requests, acks, the due fix, sightings, deliveries and the launcher's turn.
    /// False once `stop()` was called.
    public func turn(waiting: Bool = true) throws -> Bool {
        updateDemand()
        var fds = [pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
                   pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        var requestsWaiting = false
        let polled = Array(connections.values)
        for connection in polled {
            var events: Int16 = connection.wantsInput ? Int16(POLLIN) : 0
            if connection.queuedBytes > 0 { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
            if connection.mayHandle && (connection.preparing.map { $0.ready != nil } ?? connection.hasCompleteLine) { requestsWaiting = true }
        }
        fds.append(pollfd(fd: prepared.descriptor, events: Int16(POLLIN), revents: 0))
        if let wake = source?.wakeDescriptor { fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
        if let beaconSource { fds.append(pollfd(fd: beaconSource.wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
        if activation.wakeDescriptor >= 0 { fds.append(pollfd(fd: activation.wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
        let now = clock.monotonic()
        let delay = [source?.delay(now: now), healthDelay(), regionDelay(), traceRegionDelay(),
                     activation.secondsUntilDeadline(), beaconDelay(), core.indexRebuildDue.map { max(0, $0 - now) }].compactMap { $0 }.min()
        let timeout = requestsWaiting || !waiting ? 0 : delay.map { Int32(min(1000, ($0 * 1000).rounded(.up))) } ?? 1000
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if ready < 0 && errno != EINTR { throw ProtocolError("internal", "poll failed: errno \(errno)") }
        if fds[0].revents != 0 { return false }
        if fds[1].revents & Int16(POLLIN) != 0 { accept() }
        for (connection, pfd) in zip(polled, fds.dropFirst(2)) where pfd.revents != 0 {
            if pfd.revents & Int16(POLLOUT) != 0 { connection.flush() }
            if pfd.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { connection.receive(using: &readChunk) }
        }
        if fds[2 + polled.count].revents != 0 { prepared.drain() }
        for id in connections.keys.sorted() { serve(connections[id]!) }
        feedReadAcks()
        advanceTraceRegions()
        pumpSource()
        pumpBeacons()
        carryOut()
        for connection in connections.values { deliver(connection) }
        // One sync for the whole turn, requests and fixes alike: their replies and lines were held until it.
        syncCommits()
        activation.turn()
        carryOut()
        if let due = core.indexRebuildDue, clock.monotonic() >= due { feed(.rebuildDeferredIndexes) }
        do {
            try store.checkpointIfDue()
        } catch {
            logger.error("cannot checkpoint the store", metadata: ["error": "\(error)"])
        }
        for connection in connections.values where connection.isFinished {
            takeLastRequests(of: connection)
            close(connection)
        }
        return true
    }

    /// After the last turn: sources stopped, stopped processes continued, every connection and the socket closed.
    public func end() {
        logger.info("geowaked stopping")
        source?.stop()
        activation.stopping()
        syncCommits()
        for connection in Array(connections.values) {
            takeLastRequests(of: connection)
            close(connection)
        }
        if listener >= 0 {
            Glibc.close(listener)
            listener = -1
            unlink(paths.socket)
        }
    }

    /// A daemon dropped without `end()` (the simulator's crash) lets go of its descriptors as a killed process would.
    deinit {
        for connection in connections.values { Glibc.close(connection.fd) }
        if listener >= 0 { Glibc.close(listener) }
        for fd in stopPipe where fd >= 0 { Glibc.close(fd) }
    }

    /// Ends `run()` after the loop's current turn; callable from any thread.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe[1], &byte, 1)
    }

    /// Binds and listens under a temporary name beside the socket's path, sets the socket's mode, then renames it into
    /// place: whoever finds the socket at its path finds it listening and with its final mode (made by bind with the
    /// umask's, it was 0755 for a moment in system mode).
    private func listen() throws {
        let temporary = paths.socket + "~"
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        guard temporary.utf8.count < capacity else {
            throw StartupError(.usage, "--socket \(paths.socket): longer than \(capacity - 2) bytes")
        }
        // Another daemon's socket is not taken over: its clients would reach this one, and it would be left unreachable.
        if Self.somethingListens(at: paths.socket) {
            throw StartupError(.inUse, "--socket \(paths.socket): another geowaked listens there")
        }
        unlink(temporary)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = Self.withAddress(of: temporary) { bind(listener, $0, $1) }
        guard bound == 0, Glibc.listen(listener, 128) == 0 else {
            let code = errno
            throw StartupError(StartupError.kind(errno: code, creating: true),
                               "--socket \(paths.socket): cannot listen there: \(String(cString: strerror(code)))")
        }
        if getuid() == 0 { chmod(temporary, 0o666) }
        guard rename(temporary, paths.socket) == 0 else {
            let code = errno
            unlink(temporary)
            throw StartupError(StartupError.kind(errno: code, creating: true),
                               "--socket \(paths.socket): cannot listen there: \(String(cString: strerror(code)))")
        }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
    }

    /// Whether a connection to the Unix socket at `path` is accepted (a stale socket file of a stopped daemon refuses).
    private static func somethingListens(at path: String) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        return withAddress(of: path) { connect(probe, $0, $1) } == 0
    }

    /// Calls `body` (bind or connect) with the Unix socket address of `path`, which `listen` checked fits.
    private static func withAddress(of path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    private func accept() {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return }
        adopt(fd)
    }

    /// Serves a connected Unix stream socket as if it had been accepted on the listening one; its peer's
    /// credentials are the ones the kernel gives, unless `pid` names the peer (the simulator's subscribers come
    /// through socket pairs, as processes of its own process table).
    public func adopt(_ fd: Int32, pid: Int32? = nil) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var credentials = [Int32](repeating: -1, count: 3)   // struct ucred: pid, uid, gid
        var length = socklen_t(12)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials[1] >= 0 else {
            Glibc.close(fd)
            return
        }
        lastConnectionSerial += 1
        let id = ConnectionID(serial: lastConnectionSerial)
        connections[id] = Connection(id: id, fd: fd)
        let peer = Peer(uid: UInt32(bitPattern: credentials[1]), gid: UInt32(bitPattern: credentials[2]), pid: pid ?? credentials[0])
        feed(.opened(id, peer))
    }

    /// Takes the connection's waiting requests, at most `requestsPerTurn` of them and for at most `turnShare`
    /// seconds, and none once its replies fill the write buffer: one client pipelining requests neither grows the
    /// daemon nor holds up the fixes and other clients of the loop's turn.
    private func serve(_ connection: Connection) {
        let started = clock.monotonic()
        var taken = 0
        while connection.mayHandle, taken < Self.requestsPerTurn, taken == 0 || clock.monotonic() - started < Self.turnShare {
            if let preparing = connection.preparing {
                guard let request = preparing.ready else { return }
                connection.preparing = nil
                feedPrepared(request, preparing.line, on: connection)
                taken += 1
                continue
            }
            switch connection.nextLine() {
            case .line(let line) where line.count >= LinePreparation.from:
                connection.preparing = LinePreparation(line, wake: prepared)
            case .line(let line):
                feed(.request(connection.id, line[...]))
                taken += 1
            case .none:
                return
            case .tooLong:
                feed(.lineTooLong(connection.id))
                return
            }
        }
    }

    /// One sync for the turn's synced commits (requests; under `--durability full` fixes and acks too), then what
    /// they produced goes out (group commit: see `DaemonStore.write`). A store that cannot sync is logged; the
    /// replies and events still go, as with a failed checkpoint.
    func syncCommits() {
        do {
            try store.sync()
        } catch {
            logger.error("cannot sync the store", metadata: ["error": "\(error)"])
        }
        for connection in connections.values { connection.releaseHeld() }
    }

    /// Reads what `connection` has sent so far and handles every whole request of it now.
    func takeWaitingRequests(of connection: Connection) {
        takePreparedRequest(of: connection)
        connection.receive(using: &readChunk)
        while !connection.closed, case .line(let line) = connection.nextLine() { feed(.request(connection.id, line[...])) }
        feedReadAcks()
        carryOut()
    }

    /// The turn's acks, applied together; nothing to hand over (and no clock to read) when none came.
    private func feedReadAcks() {
        if !core.deferredAcks.isEmpty { feed(.requestsRead) }
    }

    static let requestsPerTurn = 64
    static let turnShare = 0.002

    /// Before a connection goes, what its peer sent and the loop has not taken yet is: a subscriber that acks its last
    /// events and exits while the daemon writes to it makes that write fail (EPIPE) before the loop read the acks, and
    /// without them its events would go again to its next process. Not after a protocol error, and at most a few MiB.
    private func takeLastRequests(of connection: Connection) {
        guard !connection.closeAfterFlush else { return }
        takePreparedRequest(of: connection)
        var reads = 0
        repeat {
            while case .line(let line) = connection.nextLine() { feed(.request(connection.id, line[...])) }
            reads += 1
        } while reads <= Self.lastRequestReads && connection.receive(using: &readChunk)
        feedReadAcks()
        carryOut()
    }

    static let lastRequestReads = 64

    /// A line being prepared aside is taken as soon as it is ready, before the connection's later lines.
    private func takePreparedRequest(of connection: Connection) {
        guard let preparing = connection.preparing else { return }
        connection.preparing = nil
        feedPrepared(preparing.wait(), preparing.line, on: connection)
    }

    /// The acks read before a prepared request are stored first, as the decisions would otherwise ask with
    /// `takeAgain`, which carries the line alone: the request would be read a second time, on the loop.
    private func feedPrepared(_ request: PreparedRequest, _ line: [UInt8], on connection: Connection) {
        feedReadAcks()
        feed(.request(connection.id, line[...], prepared: request))
    }
}
