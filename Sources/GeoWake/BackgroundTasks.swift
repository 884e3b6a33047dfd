/// How a relaunched client wants to be treated; sent with `register` when it gives a relaunch command.
public struct LaunchOptions: Hashable, Sendable {
    /// Relaunched on its next event even after being killed by someone other than the daemon (default true).
    public var relaunchAfterForceQuit: Bool
    /// The `location` background mode: not suspended while its continuous location updates run.
    public var locationInBackground: Bool
    /// The `bluetooth-central` background mode: not suspended while it ranges beacons.
    public var bluetoothInBackground: Bool
    /// Opts out of background execution (as `UIApplicationExitsOnSuspend`): the process is terminated when its
    /// background time ends instead of suspended, and launched again for its next event.
    public var exitsOnSuspend: Bool

    /// The defaults: relaunched after a force-quit, suspended after its budget like any launched process.
    public init(relaunchAfterForceQuit: Bool = true, locationInBackground: Bool = false, bluetoothInBackground: Bool = false,
                exitsOnSuspend: Bool = false) {
        self.relaunchAfterForceQuit = relaunchAfterForceQuit
        self.locationInBackground = locationInBackground
        self.bluetoothInBackground = bluetoothInBackground
        self.exitsOnSuspend = exitsOnSuspend
    }

    /// The `register` request's `options`.
    var json: [String: JSONValue] {
        let modes = (locationInBackground ? ["location"] : []) + (bluetoothInBackground ? ["bluetooth-central"] : [])
        return ["relaunchAfterForceQuit": .bool(relaunchAfterForceQuit), "exitsOnSuspend": .bool(exitsOnSuspend),
                "backgroundModes": .array(modes.map(JSONValue.string))]
    }
}

/// A background task the daemon granted; end it with `endBackgroundTask(_:)`.
public struct BackgroundTask: Hashable, Sendable {
    /// The daemon's number for the task, unique within this connection.
    public let id: Int
    /// Seconds of background time left when it began; nil when the process runs in the foreground (no budget).
    public let budgetLeft: Double?
}

extension LocationManager {
    /// Asks for more background time than the launch budget (up to the daemon's limit). `expirationHandler` runs,
    /// on the connection's reader thread, shortly before the time runs out; the task must still be ended, or the
    /// process is terminated.
    public func beginBackgroundTask(expirationHandler: @escaping @Sendable () -> Void = {}) async throws -> BackgroundTask {
        let result = try await request("beginBackgroundTask")
        guard let id = result["task"]?.int else { throw GeoWakeError.malformedReply("beginBackgroundTask without a task id") }
        backgroundTasks.withLock { $0[id] = expirationHandler }
        return BackgroundTask(id: id, budgetLeft: result["budgetLeft"]?.double)
    }

    /// Ends a task; when it was the last one of a launched or woken process, the daemon suspends the process.
    public func endBackgroundTask(_ task: BackgroundTask) async throws {
        backgroundTasks.withLock { $0[task.id] = nil }
        _ = try await request("endBackgroundTask", ["task": .number(Double(task.id))])
    }

    /// The daemon's `expiring` notice: every open task's handler runs once.
    func backgroundTimeExpiring() {
        let handlers = backgroundTasks.withLock { tasks in
            defer { for id in tasks.keys { tasks[id] = {} } }
            return tasks.sorted { $0.key < $1.key }.map(\.value)
        }
        for handler in handlers { handler() }
    }
}
