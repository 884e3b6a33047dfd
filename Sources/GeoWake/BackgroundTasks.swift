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
        guard let reply = result.object.flatMap(BackgroundTaskReply.init(fields:)), let id = Int(exactly: reply.task) else {
            throw GeoWakeError.malformedReply("beginBackgroundTask without a task id")
        }
        backgroundTasks.withLock { $0[id] = expirationHandler }
        return BackgroundTask(id: id, budgetLeft: reply.budgetLeft)
    }

    /// Ends a task; when it was the last one of a launched or woken process, the daemon suspends the process.
    public func endBackgroundTask(_ task: BackgroundTask) async throws {
        backgroundTasks.withLock { $0[task.id] = nil }
        _ = try await request("endBackgroundTask", EndBackgroundTaskRequest(task: Int64(task.id)).fields)
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
