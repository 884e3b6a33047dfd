import GeoWakeCore
import GeoWakeProtocol
import Glibc

/// The app lifecycle of every registered client as a pure state machine: inputs with the time passed in,
/// actions out for the daemon to perform (spawn, signal), no I/O, so it is tested with a fake clock.
///
/// A launched or thawed client runs on a budget; background tasks extend it to at most
/// `backgroundTaskLimit` after the launch or thaw, with a warning `expirationWarning` before the end; when
/// its last task ends it is suspended at once, when time runs out with a task still open it is terminated.
/// Background fetches (`AppLifecycleFetch.swift`) launch or thaw a client on a schedule of its own.
public struct AppLifecycle: Sendable {
    public var settings: LifecycleSettings
    public internal(set) var apps = AppRecords()

    public init(settings: LifecycleSettings = LifecycleSettings()) {
        self.settings = settings
    }

    /// The clients whose records changed since the last call: what a store of them has to write.
    public mutating func takeChangedApps() -> Set<String> { apps.takeChanged() }

    public mutating func register(_ client: String, options: LaunchOptions = LaunchOptions()) {
        if apps[client] == nil { apps[client] = AppRecord(options: options) } else { apps[client]!.options = options }
    }

    /// Adopts a record read back from the store.
    public mutating func restore(_ client: String, _ record: AppRecord) { apps[client] = record }

    public mutating func remove(_ client: String) { apps[client] = nil }

    /// The explicit stop: never launched again until enabled; a live process is terminated.
    public mutating func disable(_ client: String, at now: Timestamp) -> [LifecycleAction] {
        guard apps[client] != nil else { return [] }
        apps[client]!.disabled = true
        apps[client]!.pendingReason = nil
        switch apps[client]!.state {
        case .running, .background, .suspended: return terminate(client, at: now)
        case .crashLoop: apps[client]!.state = .notRunning; return []
        case .notRunning, .terminating: return []
        }
    }

    public mutating func enable(_ client: String) {
        apps[client]?.disabled = false
        apps[client]?.forceQuit = false
    }

    /// An event was queued for `client`; launches or thaws it when it needs to be.
    public mutating func eventQueued(for client: String, reason: LaunchReason, at now: Timestamp) -> [LifecycleAction] {
        guard var app = apps[client], !app.disabled else { return [] }
        defer { apps[client] = app }
        app.lastUsed = now
        switch app.state {
        case .running:
            return []
        case .background:
            if let ends = app.budgetEnds { app.budgetEnds = max(ends, now + settings.budget) }
            return []
        case .suspended:
            app.lastLaunchReason = reason
            enterBackground(&app, at: now)
            return [.thaw(client: client)]
        case .terminating:
            app.pendingReason = reason
            return []
        case .crashLoop:
            if let at = app.relaunchAt, at <= now { return launch(&app, client, reason, at: now) }
            app.pendingReason = reason
            return []
        case .notRunning:
            if app.forceQuit && !app.options.relaunchAfterForceQuit { return [] }
            return launch(&app, client, reason, at: now)
        }
    }

    /// The user started the client by hand while the daemon's own instance of it runs in the background, is
    /// suspended, or is being ended (its budget ran out with `exitsOnSuspend`, say, and it has not exited yet): that is
    /// bringing it to the foreground. The new process is the client from now on, started by the user; the caller ends
    /// the old one without telling `exited` (it was replaced, not lost). False, and nothing changed, when no such
    /// instance runs (one the user started keeps the client: two at once is an error).
    public mutating func replacedByUser(_ client: String, at now: Timestamp) -> Bool {
        guard var app = apps[client], [.background, .suspended, .terminating].contains(app.state) else { return false }
        defer { apps[client] = app }
        clearBackground(&app, at: now)
        app.state = .running
        app.startedAt = now
        app.lastUsed = now
        app.lastLaunchReason = nil
        app.pendingReason = nil
        return true
    }

    /// The client connected. One the daemon did not launch was started by the user, unless the process says it was
    /// launched (`launchedFor`): a power cut took back the daemon's record of that launch, and the process runs in
    /// the background again, on a fresh budget.
    public mutating func connected(_ client: String, at now: Timestamp, launchedFor: LaunchReason? = nil) {
        guard var app = apps[client] else { return }
        defer { apps[client] = app }
        app.lastUsed = now
        app.forceQuit = false
        if let reason = launchedFor, app.state == .notRunning || app.state == .crashLoop {
            app.startedAt = now
            app.relaunchAt = nil
            app.lastLaunchReason = reason
            enterBackground(&app, at: now)
        } else if app.state == .notRunning || app.state == .crashLoop {
            app.state = .running
            app.startedAt = now
            app.relaunchAt = nil
            app.lastLaunchReason = nil
        }
    }

    /// Its process ended (reaped, or found gone after a daemon restart). A launched process that ended, even
    /// cleanly, without ever connecting (`connected` false) counts as a crash: each launch was wasted, and a
    /// command that never connects must not be spawned for every event.
    public mutating func exited(_ client: String, _ exit: ProcessExit, at now: Timestamp,
                                connected: Bool = true) -> [LifecycleAction] {
        guard var app = apps[client], app.state != .notRunning, app.state != .crashLoop else { return [] }
        defer { apps[client] = app }
        let byDaemon = app.state == .terminating
        app.lastExit = exit
        clearBackground(&app, at: now)
        app.killAt = nil
        app.state = .notRunning
        if app.disabled { return [] }
        if byDaemon {
            if let reason = app.pendingReason { return launch(&app, client, reason, at: now) }
            return []
        }
        let quick = app.startedAt.map { now - $0 < settings.crashWindow } ?? false
        app.crashes = (!exit.isClean || !connected) && quick ? app.crashes + 1 : 0
        app.forceQuit = !exit.isClean
        if app.forceQuit && !app.options.relaunchAfterForceQuit { return [] }
        if app.crashes >= settings.crashLoopThreshold {
            let exponent = Double(app.crashes - settings.crashLoopThreshold)
            app.state = .crashLoop
            app.relaunchAt = now + min(settings.maxBackoff, settings.backoff * pow2(exponent))
            return []
        }
        if let reason = app.pendingReason { return launch(&app, client, reason, at: now) }
        return []
    }

    /// The spawn failed; counts as a crash so a broken command is retried with backoff, not in a loop.
    public mutating func launchFailed(_ client: String, at now: Timestamp) -> [LifecycleAction] {
        exited(client, .exited(127), at: now)
    }

    /// Opens a background task; nil when the client is not running.
    public mutating func beginBackgroundTask(_ client: String, at now: Timestamp) -> Int? {
        guard var app = apps[client], app.state == .running || app.state == .background else { return nil }
        defer { apps[client] = app }
        let id = app.nextTaskID
        app.nextTaskID += 1
        app.openTasks.insert(id)
        app.usedTasks = true
        return id
    }

    public mutating func endBackgroundTask(_ client: String, _ id: Int, at now: Timestamp) -> [LifecycleAction] {
        guard var app = apps[client], app.openTasks.remove(id) != nil else { return [] }
        apps[client] = app
        guard app.state == .background, app.openTasks.isEmpty, !app.usesLocationInBackground else { return [] }
        return suspend(client, at: now)
    }

    /// Continuous standard updates started or stopped for the client.
    public mutating func continuousLocation(_ client: String, active: Bool, at now: Timestamp) {
        guard var app = apps[client] else { return }
        if app.continuousLocation && !active && app.state == .background { app.budgetEnds = now + settings.budget }
        app.continuousLocation = active
        apps[client] = app
    }

    /// After a daemon restart: a process still alive is thawed onto a fresh budget (it may have been
    /// stopped when the daemon died), one that is gone counts as ended.
    public mutating func recovered(_ client: String, processAlive: Bool, at now: Timestamp) -> [LifecycleAction] {
        guard var app = apps[client] else { return [] }
        switch app.state {
        case .notRunning, .crashLoop:
            return []
        case .running:
            // A process the user started is known only by its connection, whose end counts as a clean exit: so does
            // finding it gone after a restart (the daemon, not it, was killed).
            return processAlive ? [] : exited(client, .exited(0), at: now)
        case .background, .suspended, .terminating:
            guard processAlive else {
                app.state = .background
                apps[client] = app
                return exited(client, .signaled(SIGKILL), at: now)
            }
            enterBackground(&app, at: now)
            apps[client] = app
            return [.thaw(client: client)]
        }
    }

    /// Fires what is due at `now`: warnings, suspensions, overrun terminations, kills, crash-loop relaunches.
    public mutating func advance(to now: Timestamp) -> [LifecycleAction] {
        var actions: [LifecycleAction] = []
        // Only these states have deadlines; a thousand idle clients cost nothing each turn.
        let timed = apps.timed.filter { apps[$0].map { [.background, .terminating, .crashLoop].contains($0.state) } ?? false }
        for client in timed.sorted() {
            let app = apps[client]!
            switch app.state {
            case .background:
                guard let end = backgroundEnd(app) else { continue }
                if end <= now {
                    actions += app.openTasks.isEmpty ? suspend(client, at: now) : terminate(client, at: now)
                } else if !app.openTasks.isEmpty, !app.warned, end + -settings.expirationWarning <= now {
                    apps[client]!.warned = true
                    actions.append(.expirationWarning(client: client))
                }
            case .terminating:
                if let at = app.killAt, at <= now {
                    apps[client]!.killAt = nil
                    actions.append(.kill(client: client))
                }
            case .crashLoop:
                if let at = app.relaunchAt, at <= now, let reason = app.pendingReason {
                    var record = app
                    actions += launch(&record, client, reason, at: now)
                    apps[client] = record
                }
            case .notRunning, .running, .suspended:
                continue
            }
        }
        return actions + startDueFetches(at: now)
    }

    public var nextDeadline: Timestamp? {
        let lifecycle = apps.timed.compactMap { apps[$0] }.compactMap { app -> Timestamp? in
            switch app.state {
            case .background:
                guard let end = backgroundEnd(app) else { return nil }
                return !app.openTasks.isEmpty && !app.warned ? end + -settings.expirationWarning : end
            case .terminating: return app.killAt
            case .crashLoop: return app.pendingReason == nil ? nil : app.relaunchAt
            case .notRunning, .running, .suspended: return nil
            }
        }
        return (lifecycle + fetchDeadlines).min()
    }

    /// Seconds of background time left, for `geowake status`; nil when not on a budget.
    public func budgetLeft(_ client: String, at now: Timestamp) -> Double? {
        guard let app = apps[client], app.state == .background, let end = backgroundEnd(app) else { return nil }
        return max(0, end - now)
    }

    /// When its background time ends: the budget (extended by events), or a running fetch's own budget, or with open
    /// tasks the task limit; nil while a background mode keeps it running.
    func backgroundEnd(_ app: AppRecord) -> Timestamp? {
        if app.usesLocationInBackground { return nil }
        if !app.openTasks.isEmpty, let since = app.backgroundSince {
            return max(since + settings.backgroundTaskLimit, app.fetch?.runsUntil ?? since)
        }
        return [app.budgetEnds, app.fetch?.runsUntil].compactMap { $0 }.max()
    }

    mutating func launch(_ app: inout AppRecord, _ client: String, _ reason: LaunchReason,
                                 at now: Timestamp) -> [LifecycleAction] {
        app.pendingReason = nil
        app.relaunchAt = nil
        app.lastLaunchReason = reason
        app.startedAt = now
        enterBackground(&app, at: now)
        return [.launch(client: client, reason: reason)]
    }

    func enterBackground(_ app: inout AppRecord, at now: Timestamp) {
        app.state = .background
        app.backgroundSince = now
        app.budgetEnds = now + settings.budget
        app.openTasks = []
        app.usedTasks = false
        app.warned = false
    }

    /// Leaving the background ends a fetch still running without its result: it counts as failed.
    func clearBackground(_ app: inout AppRecord, at now: Timestamp) {
        if app.fetch?.isRunning == true { app.fetch!.finish(.failed, at: now) }
        app.backgroundSince = nil
        app.budgetEnds = nil
        app.openTasks = []
        app.warned = false
    }

    mutating func suspend(_ client: String, at now: Timestamp) -> [LifecycleAction] {
        if apps[client]!.options.exitsOnSuspend { return terminate(client, at: now) }
        clearBackground(&apps[client]!, at: now)
        apps[client]!.state = .suspended
        apps[client]!.lastUsed = apps[client]!.lastUsed ?? now
        var actions: [LifecycleAction] = [.suspend(client: client)]
        let suspended = apps.timed.compactMap { name in apps[name].map { (key: name, value: $0) } }.filter { $0.value.state == .suspended }
        if suspended.count > settings.maxSuspended,
           let oldest = suspended.min(by: { ($0.value.lastUsed ?? now, $0.key) < ($1.value.lastUsed ?? now, $1.key) }) {
            actions += terminate(oldest.key, at: now)
        }
        return actions
    }

    mutating func terminate(_ client: String, at now: Timestamp) -> [LifecycleAction] {
        clearBackground(&apps[client]!, at: now)
        apps[client]!.state = .terminating
        apps[client]!.killAt = now + settings.terminationGrace
        return [.terminate(client: client)]
    }

    private func pow2(_ exponent: Double) -> Double { exponent >= 30 ? Double(1 << 30) : Double(1 << Int(exponent)) }
}
