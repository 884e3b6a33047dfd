import GeoWakeCore
import GeoWakeProtocol

/// Background fetch (iOS's `setMinimumBackgroundFetchInterval`): a client that asked for one is launched, thawed or,
/// when already in the background, told to fetch once its schedule says so, with `fetchBudget` seconds of its own to
/// report what it found; the result stretches or shrinks the next interval (`BackgroundFetchSchedule`).
extension AppLifecycle {
    /// Sets the client's minimum fetch interval, or with nil stops its fetches (a running fetch loses its time).
    /// The same minimum again keeps the schedule as it is, as a relaunched client sets it at every start; another one
    /// starts afresh, its first fetch one minimum from `now`. Returns the schedule; nil for an unknown client or nil.
    @discardableResult
    public mutating func setBackgroundFetch(_ client: String, minimumInterval: Double?,
                                            at now: Timestamp) -> BackgroundFetchSchedule? {
        guard apps[client] != nil else { return nil }
        guard let minimumInterval else {
            apps[client]!.fetch = nil
            return nil
        }
        if apps[client]!.fetch == nil {
            apps[client]!.fetch = BackgroundFetchSchedule(minimumInterval: minimumInterval, at: now)
        } else if apps[client]!.fetch!.minimumInterval != minimumInterval {
            apps[client]!.fetch!.change(minimumInterval: minimumInterval, at: now)
        }
        return apps[client]!.fetch
    }

    /// The client reports what its fetch found. Nil, and nothing changes, when no fetch of its runs; otherwise what
    /// to do: the fetch's time ends, so a client nothing else keeps in the background is suspended at once.
    public mutating func completeBackgroundFetch(_ client: String, _ result: BackgroundFetchResult,
                                                 at now: Timestamp) -> [LifecycleAction]? {
        guard var app = apps[client], app.fetch?.isRunning == true else { return nil }
        app.fetch!.finish(result, at: now)
        apps[client] = app
        guard app.state == .background, app.openTasks.isEmpty, let end = backgroundEnd(app), end <= now else { return [] }
        return suspend(client, at: now)
    }

    /// Starts every fetch that is due: a client not running is launched for it, a suspended one thawed, one in the
    /// background told. One that cannot be fetched now skips this fetch: started by the user (in the foreground),
    /// disabled, force-quit without relaunch, crash-looping or being terminated.
    mutating func startDueFetches(at now: Timestamp) -> [LifecycleAction] {
        var actions: [LifecycleAction] = []
        let due = apps.timed.filter { guard let fetch = apps[$0]?.fetch else { return false }; return !fetch.isRunning && fetch.due <= now }
        for client in due.sorted() {
            guard var app = apps[client], let fetch = app.fetch, !fetch.isRunning, fetch.due <= now else { continue }
            let blocked = app.disabled || (app.forceQuit && !app.options.relaunchAfterForceQuit)
            switch app.state {
            case .notRunning where !blocked:
                actions += launch(&app, client, .fetch, at: now)
                app.budgetEnds = now   // only the fetch's own time, unless events come
            case .suspended where !blocked:
                app.lastLaunchReason = .fetch
                app.lastUsed = now
                enterBackground(&app, at: now)
                app.budgetEnds = now
                actions.append(.thaw(client: client))
            case .background:
                break
            default:
                app.fetch!.skip(at: now)
                apps[client] = app
                continue
            }
            app.fetch!.start(at: now, budget: settings.fetchBudget)
            apps[client] = app
            actions.append(.fetch(client: client))
        }
        return actions
    }

    /// When the next fetch of each client that has none running is due.
    var fetchDeadlines: [Timestamp] {
        apps.timed.compactMap { apps[$0]?.fetch.flatMap { $0.isRunning ? nil : $0.due } }
    }
}
