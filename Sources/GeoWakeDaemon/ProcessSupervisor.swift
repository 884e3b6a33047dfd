import Foundation
import GeoWakeCore
import GRDB
import Logging
import ProcessLifecycle
import GeoWakeProtocol

nonisolated(unsafe) private var childEnded: [Int32] = [-1, -1]

/// The daemon's launcher: drives `AppLifecycle` for every registered client and performs what it decides —
/// spawning (as the registering account in system mode), stopping and continuing process groups, SIGTERM then
/// SIGKILL, reaping — and keeps each client's record and process in the store after every change.
public final class ProcessSupervisor: ClientActivation {
    var lifecycle: AppLifecycle
    private var processes: [ClientKey: ProcessIdentity] = [:]
    /// Processes found alive after a daemon restart: not our children, so watched through /proc, not waitpid.
    private var adopted: Set<ClientKey> = []
    private var gids: [ClientKey: UInt32] = [:]
    /// Launched processes that have not connected yet.
    private var unconnected: Set<ClientKey> = []
    private var registrations: [ClientKey: (gid: UInt32, options: ClientOptions?)] = [:]
    /// Launched processes a hand-started one replaced: ended (SIGTERM, SIGKILL at the deadline) and reaped apart
    /// from their client's app, which is the new process's now.
    private var replaced: [(process: ProcessIdentity, adopted: Bool, killAt: Timestamp)] = []
    private var saved: [ClientKey: AppTable.Row] = [:]
    /// The connection each running background fetch was told on (`BackgroundFetchSupervision.swift`).
    var fetchToldOn: [ClientKey: ToldConnection] = [:]
    private weak var daemon: Daemon?
    private let logDirectory: String?
    private let logger: Logger
    private let clock: () -> Timestamp

    /// `logDirectory` receives each client's standard output and error (default: `logs` beside the store).
    public init(settings: LifecycleSettings = LifecycleSettings(), logDirectory: String? = nil, logger: Logger,
                clock: @escaping () -> Timestamp = { Timestamp(secondsSince1970: Date().timeIntervalSince1970) }) {
        lifecycle = AppLifecycle(settings: settings)
        self.logDirectory = logDirectory
        self.logger = logger
        self.clock = clock
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
            let (clients, rows) = try daemon.store.queue.read { db in (try AppTable.clients(db), try AppTable.load(db)) }
            for (key, options) in clients {
                let name = Self.name(key)
                let clientOptions = (try? Self.clientOptions(options)) ?? ClientOptions()
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
                let alive = processes[key]?.isAlive ?? false
                if !alive { processes[key] = nil; adopted.remove(key) }
                perform(lifecycle.recovered(Self.name(key), processAlive: alive, at: now))
            }
        } catch {
            logger.error("cannot read the clients' app states", metadata: ["error": "\(error)"])
        }
        persist()
    }

    public func registering(_ client: ClientKey, gid: UInt32, launch: [String]?, options: [String: Any]?) throws(ProtocolError) {
        if let launch {
            do {
                try LaunchCommand(launch).validate(for: client.uid)
            } catch {
                throw ProtocolError("unsafeLaunch", error.description)
            }
        }
        registrations[client] = (gid, try options.map(Self.clientOptions))
    }

    /// `relaunchAfterForceQuit` (bool, default true) and `backgroundModes` (strings; `location` is the one known).
    static func clientOptions(_ object: [String: Any]?) throws(ProtocolError) -> ClientOptions {
        var options = ClientOptions()
        guard let object else { return options }
        if let value = object["relaunchAfterForceQuit"] {
            guard let flag = value as? Bool, String(cString: (value as! NSNumber).objCType) == "c" else {
                throw .badRequest("\"options.relaunchAfterForceQuit\" must be true or false")
            }
            options.relaunchAfterForceQuit = flag
        }
        if let value = object["backgroundModes"] {
            guard let modes = value as? [String], modes.allSatisfy(["location", "bluetooth-central"].contains) else {
                throw .badRequest("\"options.backgroundModes\" must be an array of known modes (\"location\", \"bluetooth-central\")")
            }
            options.locationBackgroundMode = modes.contains("location")
            options.bluetoothBackgroundMode = modes.contains("bluetooth-central")
        }
        if let value = object["exitsOnSuspend"] {
            guard let flag = value as? Bool, String(cString: (value as! NSNumber).objCType) == "c" else {
                throw .badRequest("\"options.exitsOnSuspend\" must be true or false")
            }
            options.exitsOnSuspend = flag
        }
        return options
    }

    public func connectionOpened(_ client: ClientKey) {
        let name = Self.name(client)
        let registration = registrations.removeValue(forKey: client)
        lifecycle.register(name, options: registration?.options ?? lifecycle.apps[name]?.options ?? ClientOptions())
        if let gid = registration?.gid { gids[client] = gid }
        unconnected.remove(client)
        lifecycle.connected(name, at: clock())
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
            _ = process.thaw()
            _ = process.terminate()
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
        if lifecycle.apps[Self.name(client)]?.state == .suspended { processes[client]?.thaw() }
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
            let ended = entry.adopted ? !entry.process.isAlive : entry.process.reap() != nil
            if !ended && entry.killAt <= now { _ = entry.process.kill() }
            return ended
        }
        for (client, process) in processes.sorted(by: { $0.key < $1.key }) {
            let exit: ProcessExit?
            if adopted.contains(client) {
                exit = process.isAlive ? nil : .signaled(SIGKILL)
            } else {
                exit = process.reap()
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
                let active = (app.options.locationBackgroundMode && daemon.services.configuration(of: .standard, for: client) != nil)
                    || (app.options.bluetoothBackgroundMode && daemon.beacons.subscriptions.ranging[client] != nil)
                if active != app.continuousLocation { lifecycle.continuousLocation(name, active: active, at: now) }
            }
        }
        perform(lifecycle.advance(to: now))
        sendFetchNotices()
        persist()
    }

    public func stopping() {
        for (client, process) in processes where lifecycle.apps[Self.name(client)]?.state == .suspended { process.thaw() }
    }

    func perform(_ actions: [LifecycleAction]) {
        for action in actions {
            switch action {
            case .launch(let name, let reason): launch(key(name), reason)
            case .thaw(let name): processes[key(name)]?.thaw()
            case .suspend(let name): processes[key(name)]?.suspend()
            case .terminate(let name): processes[key(name)]?.terminate()
            case .kill(let name): processes[key(name)]?.kill()
            case .expirationWarning(let name):
                let left = lifecycle.budgetLeft(name, at: clock()) ?? 0
                daemon?.connection(for: key(name))?.send(Array("{\"type\":\"expiring\",\"budgetLeft\":\(left)}\n".utf8))
            case .fetch: break   // told at the end of the turn, or once its process registers (sendFetchNotices)
            }
        }
    }

    private func launch(_ client: ClientKey, _ reason: LaunchReason) {
        let name = Self.name(client)
        guard let daemon, let argv = launchCommand(client) else {
            perform(lifecycle.launchFailed(name, at: clock()))
            return
        }
        do {
            let command = LaunchCommand(argv)
            try command.validate(for: client.uid)
            let account = geteuid() == 0 && client.uid != 0
                ? try LaunchAccount.lookUp(uid: client.uid, gid: gids[client] ?? Self.primaryGroup(of: client.uid))
                : nil
            let process = try Launcher.spawn(LaunchRequest(command: command, reason: reason, socketPath: daemon.paths.socket,
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
        (try? daemon?.store.queue.read { db in try AppTable.launchCommand(db, client) }) ?? nil
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
        var current: [ClientKey: AppTable.Row] = [:]
        for (name, record) in lifecycle.apps {
            let client = key(name)
            current[client] = AppTable.Row(gid: gids[client] ?? client.uid, record: record,
                                           process: processes[client])
        }
        let changed = current.filter { saved[$0.key] != $0.value }
        let removed = saved.keys.filter { current[$0] == nil }
        guard !changed.isEmpty || !removed.isEmpty else { return }
        do {
            try daemon.store.write { db in
                for (client, row) in changed { try AppTable.save(db, client, row) }
                for client in removed { try AppTable.delete(db, client) }
            }
            saved = current
        } catch {
            logger.error("cannot store the clients' app states", metadata: ["error": "\(error)"])
        }
    }

    /// For `status`: app state, budget, last launch reason and exit, background location, crash-loop backoff.
    public func status(of client: ClientKey) -> [String: Any] {
        let name = Self.name(client)
        guard let app = lifecycle.apps[name] else { return [:] }
        let now = clock()
        var fields: [String: Any] = ["app": app.state.rawValue, "relaunchAfterForceQuit": app.options.relaunchAfterForceQuit,
                                     "backgroundModes": (app.options.locationBackgroundMode ? ["location"] : [])
                                        + (app.options.bluetoothBackgroundMode ? ["bluetooth-central"] : [String]()),
                                     "exitsOnSuspend": app.options.exitsOnSuspend,
                                     "backgroundLocation": app.usesLocationInBackground, "crashes": app.crashes,
                                     "backgroundTasks": app.openTasks.count]
        if let process = processes[client] { fields["pid"] = Int(process.pid) }
        if let left = lifecycle.budgetLeft(name, at: now) { fields["budgetLeft"] = left }
        if let reason = app.lastLaunchReason { fields["lastLaunchReason"] = reason.rawValue }
        if let exit = app.lastExit { fields["lastExit"] = exit.description }
        if app.state == .crashLoop, let at = app.relaunchAt { fields["backoff"] = max(0, at - now) }
        if let fetch = app.fetch { fields["backgroundFetch"] = Self.fetchStatus(fetch, at: now) }
        return fields
    }

    public func beginBackgroundTask(_ client: ClientKey) throws(ProtocolError) -> [String: Any] {
        let name = Self.name(client), now = clock()
        guard let task = lifecycle.beginBackgroundTask(name, at: now) else {
            throw ProtocolError("notRunning", "\(client.clientID) is not running in the foreground or background")
        }
        persist()
        return ["task": task, "budgetLeft": lifecycle.budgetLeft(name, at: now) ?? NSNull()]
    }

    // For the extensions in files of their own.
    var now: Timestamp { clock() }
    var log: Logger { logger }
    var owner: Daemon? { daemon }

    public func endBackgroundTask(_ client: ClientKey, _ task: Int) throws(ProtocolError) -> [String: Any] {
        let name = Self.name(client)
        guard lifecycle.apps[name]?.openTasks.contains(task) == true else {
            throw ProtocolError("unknownTask", "no open background task \(task) for \(client.clientID)")
        }
        perform(lifecycle.endBackgroundTask(name, task, at: clock()))
        persist()
        return [:]
    }
}
