import Foundation
import GeoWakeCore
import Logging
import ProcessLifecycle
import GeoWakeProtocol

nonisolated(unsafe) private var childEnded: [Int32] = [-1, -1]

/// The daemon's launcher: drives `AppLifecycle` for every registered client and performs what it decides —
/// spawning (as the registering account in system mode), stopping and continuing process groups, SIGTERM then
/// SIGKILL, reaping — and keeps each client's record and process in the store after every change.
public final class ProcessSupervisor: ClientActivation {
    var lifecycle: AppLifecycle
    private var processes = ChangeTrackingDictionary<ClientKey, ProcessIdentity>()
    /// Processes found alive after a daemon restart: not our children, so watched through /proc, not waitpid.
    private var adopted: Set<ClientKey> = []
    private var gids = ChangeTrackingDictionary<ClientKey, UInt32>()
    /// Until the first successful `persist()`, which compares every row (rows of clients gone are deleted then).
    private var comparesEveryRow = true
    /// Apps changed since the last successful `persist()`.
    private var unsaved: Set<String> = []
    /// Launched processes that have not connected yet.
    private var unconnected: Set<ClientKey> = []
    private var registrations: [ClientKey: (gid: UInt32, options: LaunchOptions?)] = [:]
    /// Launched processes a hand-started one replaced: ended (SIGTERM, SIGKILL at the deadline) and reaped apart
    /// from their client's app, which is the new process's now.
    private var replaced: [(process: ProcessIdentity, adopted: Bool, killAt: Timestamp)] = []
    private var saved: [ClientKey: AppTable.Row] = [:]
    /// The connection each running background fetch was told on (`BackgroundFetchSupervision.swift`).
    /// (A connection's id is never reused, so a new connection is never taken for one already told.)
    var fetchToldOn: [ClientKey: ConnectionID] = [:]
    private weak var daemon: Daemon?
    private let logDirectory: String?
    private let logger: Logger
    private let clock: () -> Timestamp
    private let control: ProcessControl

    /// `logDirectory` receives each client's standard output and error (default: `logs` beside the store).
    public init(settings: LifecycleSettings = LifecycleSettings(), logDirectory: String? = nil, logger: Logger,
                clock: @escaping () -> Timestamp = DaemonClock.system.wall, control: ProcessControl = SystemProcessControl()) {
        lifecycle = AppLifecycle(settings: settings)
        self.logDirectory = logDirectory
        self.logger = logger
        self.clock = clock
        self.control = control
    }

    static func name(_ key: ClientKey) -> String { "\(key.uid):\(key.clientID)" }

    func key(_ name: String) -> ClientKey {
        let colon = name.firstIndex(of: ":")!
        return ClientKey(uid: UInt32(name[..<colon])!, clientID: String(name[name.index(after: colon)...]))
    }

    public var wakeDescriptor: Int32 { childEnded[0] }

    public func start(_ daemon: Daemon) {
        self.daemon = daemon
        if childEnded[0] < 0, pipe(&childEnded) == 0 {
            for fd in childEnded { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            signal(SIGCHLD) { _ in var byte: UInt8 = 1; _ = write(childEnded[1], &byte, 1) }
        }
        try? FileManager.default.createDirectory(atPath: logPath(nil), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let now = clock()
        do {
            let (clients, rows) = (try daemon.store.clients(), try daemon.store.apps())
            for client in clients {
                let key = client.key, options = client.options.flatMap { try? JSONValue(parsing: $0).object }
                let name = Self.name(key)
                let clientOptions = (try? Self.clientOptions(options)) ?? LaunchOptions()
                if var row = rows[key] {
                    row.record.options = clientOptions
                    lifecycle.restore(name, row.record)
                    gids[key] = row.gid
                    if let process = row.process { processes[key] = process; adopted.insert(key) }
                    saved[key] = row
                } else {
                    lifecycle.register(name, options: clientOptions)
                    gids[key] = Self.primaryGroup(of: key.uid)
                }
            }
            // Rows of clients that are gone are deleted by the persist below.
            for (key, row) in rows where saved[key] == nil { saved[key] = row }
            for key in rows.keys where lifecycle.apps[Self.name(key)] != nil {
                let alive = processes[key].map(control.isAlive) ?? false
                if !alive { processes[key] = nil; adopted.remove(key) }
                perform(lifecycle.recovered(Self.name(key), processAlive: alive, at: now))
            }
        } catch {
            logger.error("cannot read the clients' app states", metadata: ["error": "\(error)"])
        }
        persist()
    }

    public func registering(_ client: ClientKey, gid: UInt32, launch: [String]?, options: [String: JSONValue]?) throws(ProtocolError) {
        if let launch {
            do {
                try control.validate(LaunchCommand(launch), for: client.uid)
            } catch {
                throw ProtocolError("unsafeLaunch", error.description)
            }
        }
        registrations[client] = (gid, try options.map(Self.clientOptions))
    }

    /// The `register` request's `options`, read as the protocol defines them.
    static func clientOptions(_ object: [String: JSONValue]?) throws(ProtocolError) -> LaunchOptions {
        try ProtocolError.reading { () throws(RequestError) in try LaunchOptions(fields: object) }
    }

    /// A process that says the daemon launched it, while the store knows of no launched instance (a power cut took
    /// the launch back), is that instance again: in the background on a budget, watched by its pid, and a process
    /// the user then starts takes over from it.
    public func connectionOpened(_ client: ClientKey, pid: Int32, launchedFor: LaunchReason?) {
        let name = Self.name(client)
        let registration = registrations.removeValue(forKey: client)
        lifecycle.register(name, options: registration?.options ?? lifecycle.apps[name]?.options ?? LaunchOptions())
        if let gid = registration?.gid { gids[client] = gid }
        unconnected.remove(client)
        if launchedFor != nil, processes[client] == nil, let process = control.identity(of: pid) {
            processes[client] = process
            adopted.insert(client)
        }
        lifecycle.connected(name, at: clock(), launchedFor: launchedFor)
        persist()
    }

    /// A process the daemon did not start is known only by its connection: its end is the connection's end,
    /// and how it ended cannot be seen, so it counts as a clean exit.
    public func connectionClosed(_ client: ClientKey) {
        let name = Self.name(client)
        guard processes[client] == nil, let state = lifecycle.apps[name]?.state, state == .running || state == .terminating else { return }
        perform(lifecycle.exited(name, .exited(0), at: clock()))
        persist()
    }

    public func takeOver(_ client: ClientKey) -> Bool {
        let now = clock()
        guard lifecycle.replacedByUser(Self.name(client), at: now) else { return false }
        if let process = processes.removeValue(forKey: client) {
            control.send(.thaw, to: process)
            control.send(.terminate, to: process)
            replaced.append((process, adopted.contains(client), now + lifecycle.settings.terminationGrace))
            logger.info("client started by hand: its launched process ends", metadata: ["client": "\(client.clientID)", "pid": "\(process.pid)"])
        }
        adopted.remove(client)
        unconnected.remove(client)
        persist()
        return true
    }

    public func eventQueued(for client: ClientKey, reason: LaunchReason?) {
        let name = Self.name(client)
        guard let reason, let app = lifecycle.apps[name] else { return }
        if app.state == .notRunning || app.state == .crashLoop, launchCommand(client) == nil { return }
        let actions = lifecycle.eventQueued(for: name, reason: reason, at: clock())
        perform(actions)
        // A longer budget or a later last use alone can wait for the turn after delivery.
        if !actions.isEmpty { persist() }
    }

    public func disabled(_ client: ClientKey) {
        perform(lifecycle.disable(Self.name(client), at: clock()))
        persist()
    }

    public func enabled(_ client: ClientKey) {
        lifecycle.enable(Self.name(client))
        persist()
    }

    /// The explicit stop: the client is gone, its process is left alone (it is usually the one asking).
    public func unregistered(_ client: ClientKey) {
        if lifecycle.apps[Self.name(client)]?.state == .suspended, let process = processes[client] { control.send(.thaw, to: process) }
        lifecycle.remove(Self.name(client))
        processes[client] = nil
        adopted.remove(client)
        persist()
    }

    public func secondsUntilDeadline() -> Double? {
        lifecycle.nextDeadline.map { max(0, $0 - clock()) }
    }

    public func turn() {
        var byte: UInt8 = 0
        while childEnded[0] >= 0, read(childEnded[0], &byte, 1) > 0 {}
        let now = clock()
        replaced.removeAll { entry in
            let ended = entry.adopted ? !control.isAlive(entry.process) : control.reap(entry.process) != nil
            if !ended && entry.killAt <= now { control.send(.kill, to: entry.process) }
            return ended
        }
        for (client, process) in processes.values.sorted(by: { $0.key < $1.key }) {
            let exit: ProcessExit?
            if adopted.contains(client) {
                exit = control.isAlive(process) ? nil : .signaled(SIGKILL)
            } else {
                exit = control.reap(process)
            }
            guard let exit else { continue }
            processes[client] = nil
            adopted.remove(client)
            logger.info("client process ended", metadata: ["client": "\(client.clientID)", "pid": "\(process.pid)", "exit": "\(exit)"])
            perform(lifecycle.exited(Self.name(client), exit, at: now, connected: unconnected.remove(client) == nil))
        }
        if let daemon {
            for (name, app) in lifecycle.apps where app.options.hasBackgroundMode {
                let client = key(name)
                let active = (app.options.locationInBackground && daemon.core.services.configuration(of: .standard, for: client) != nil)
                    || (app.options.bluetoothInBackground && daemon.core.beacons.subscriptions.ranging[client] != nil)
                if active != app.continuousLocation { lifecycle.continuousLocation(name, active: active, at: now) }
            }
        }
        perform(lifecycle.advance(to: now))
        sendFetchNotices()
        persist()
    }

    public func stopping() {
        for (client, process) in processes.values where lifecycle.apps[Self.name(client)]?.state == .suspended { control.send(.thaw, to: process) }
    }

    func perform(_ actions: [LifecycleAction]) {
        for action in actions {
            switch action {
            case .launch(let name, let reason): launch(key(name), reason)
            case .thaw(let name): send(.thaw, to: key(name))
            case .suspend(let name): send(.suspend, to: key(name))
            case .terminate(let name): send(.terminate, to: key(name))
            case .kill(let name): send(.kill, to: key(name))
            case .expirationWarning(let name):
                let left = lifecycle.budgetLeft(name, at: clock()) ?? 0
                daemon?.core.send(ServerNotice.expiring(budgetLeft: left).line, to: key(name))
            case .fetch: break   // told at the end of the turn, or once its process registers (sendFetchNotices)
            }
        }
    }

    private func send(_ signal: ProcessSignal, to client: ClientKey) {
        if let process = processes[client] { control.send(signal, to: process) }
    }

    private func launch(_ client: ClientKey, _ reason: LaunchReason) {
        let name = Self.name(client)
        guard let daemon, let argv = launchCommand(client) else {
            perform(lifecycle.launchFailed(name, at: clock()))
            return
        }
        do {
            let command = LaunchCommand(argv)
            try control.validate(command, for: client.uid)
            let account = geteuid() == 0 && client.uid != 0
                ? try LaunchAccount.lookUp(uid: client.uid, gid: gids[client] ?? Self.primaryGroup(of: client.uid))
                : nil
            let process = try control.spawn(LaunchRequest(command: command, reason: reason, socketPath: daemon.paths.socket,
                                                           logPath: logPath(client), account: account))
            processes[client] = process
            adopted.remove(client)
            unconnected.insert(client)
            logger.info("launched client", metadata: ["client": "\(client.clientID)", "uid": "\(client.uid)",
                                                      "pid": "\(process.pid)", "reason": "\(reason.rawValue)"])
        } catch {
            logger.error("cannot launch client", metadata: ["client": "\(client.clientID)", "error": "\(error)"])
            perform(lifecycle.launchFailed(name, at: clock()))
        }
    }

    func launchCommand(_ client: ClientKey) -> [String]? {
        (try? daemon?.store.launchCommand(of: client)) ?? nil
    }

    private func logPath(_ client: ClientKey?) -> String {
        let directory = logDirectory ?? (((daemon?.paths.state ?? "/tmp") as NSString).deletingLastPathComponent + "/logs")
        guard let client else { return directory }
        return directory + "/\(client.uid)-\(client.clientID).log"
    }

    static func primaryGroup(of uid: UInt32) -> UInt32 {
        guard let entry = getpwuid(uid) else { return uid }
        return entry.pointee.pw_gid
    }

    /// Writes every record that changed since the last write, in one transaction.
    func persist() {
        guard let daemon else { return }
        unsaved.formUnion(lifecycle.takeChangedApps())
        var candidates = Set(unsaved.map(key)).union(processes.changedKeys).union(gids.changedKeys)
        if comparesEveryRow { candidates.formUnion(Set(saved.keys).union(lifecycle.apps.keys.map(key))) }
        guard !candidates.isEmpty else { return }
        var changed: [ClientKey: AppTable.Row] = [:]
        var removed: [ClientKey] = []
        for client in candidates {
            guard let record = lifecycle.apps[Self.name(client)] else {
                if saved[client] != nil { removed.append(client) }
                continue
            }
            let row = AppTable.Row(gid: gids[client] ?? client.uid, record: record, process: processes[client])
            if saved[client] != row { changed[client] = row }
        }
        guard !changed.isEmpty || !removed.isEmpty else {
            forgetChanges()
            return
        }
        // Which process runs for a client, and whether it is stopped, must survive a power cut of the store's disk
        // before the daemon acts on it: a daemon that forgot a process it stopped would leave it stopped for good.
        // A client with no process on either side (one the user started, known by its connection) has nothing to
        // stop: its new state joins the turn's one sync, as its `register` does. Budgets and timestamps alone may
        // be lost.
        let moved = changed.filter { client, row in
            saved[client]?.process != row.process || saved[client]?.record.state != row.record.state
        }
        let durable = moved.contains { client, row in saved[client]?.process != nil || row.process != nil }
        do {
            let save = { (transaction: StoreTransaction) in
                for (client, row) in changed { try transaction.save(row, for: client) }
                for client in removed { try transaction.deleteApp(of: client) }
            }
            if durable { try daemon.store.writeDurably(save) } else { try daemon.store.write(synced: !moved.isEmpty, save) }
            for (client, row) in changed { saved[client] = row }
            for client in removed { saved[client] = nil }
            forgetChanges()
        } catch {
            logger.error("cannot store the clients' app states", metadata: ["error": "\(error)"])
        }
    }

    private func forgetChanges() {
        unsaved = []
        processes.forgetChanges()
        gids.forgetChanges()
        comparesEveryRow = false
    }

    /// For `status`: app state, budget, last launch reason and exit, background location, crash-loop backoff.
    public func status(of client: ClientKey) -> AppStatus? {
        let name = Self.name(client)
        guard let app = lifecycle.apps[name] else { return nil }
        let now = clock()
        let modes = (app.options.locationInBackground ? ["location"] : []) + (app.options.bluetoothInBackground ? ["bluetooth-central"] : [])
        return AppStatus(state: app.state.rawValue, pid: processes[client].map { Int64($0.pid) }, budgetLeft: lifecycle.budgetLeft(name, at: now),
                         backgroundTasks: Int64(app.openTasks.count), lastLaunchReason: app.lastLaunchReason, lastExit: app.lastExit?.description,
                         backgroundModes: modes, backgroundLocation: app.usesLocationInBackground, exitsOnSuspend: app.options.exitsOnSuspend,
                         relaunchAfterForceQuit: app.options.relaunchAfterForceQuit, crashes: Int64(app.crashes),
                         backoff: app.state == .crashLoop ? app.relaunchAt.map { max(0, $0 - now) } : nil,
                         backgroundFetch: app.fetch.map { Self.fetchReply($0, at: now) })
    }

    public func beginBackgroundTask(_ client: ClientKey) throws(ProtocolError) -> [String: JSONValue] {
        let name = Self.name(client), now = clock()
        guard let task = lifecycle.beginBackgroundTask(name, at: now) else {
            throw ProtocolError("notRunning", "\(client.clientID) is not running in the foreground or background")
        }
        persist()
        return BackgroundTaskReply(task: Int64(task), budgetLeft: lifecycle.budgetLeft(name, at: now)).fields
    }

    // For the extensions in files of their own.
    var now: Timestamp { clock() }
    var log: Logger { logger }
    var owner: Daemon? { daemon }

    public func endBackgroundTask(_ client: ClientKey, _ task: Int) throws(ProtocolError) -> [String: JSONValue] {
        let name = Self.name(client)
        guard lifecycle.apps[name]?.openTasks.contains(task) == true else {
            throw ProtocolError("unknownTask", "no open background task \(task) for \(client.clientID)")
        }
        perform(lifecycle.endBackgroundTask(name, task, at: clock()))
        persist()
        return [:]
    }
}
