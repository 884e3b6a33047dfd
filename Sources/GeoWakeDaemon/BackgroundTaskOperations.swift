import Foundation

/// beginBackgroundTask / endBackgroundTask: a launched or thawed client asks for more time than its budget.
extension Daemon {
    nonisolated(unsafe) static let backgroundTaskOperations: [String: Operation] = [
        "beginBackgroundTask": { daemon, request in
            try daemon.activation.beginBackgroundTask(try request.client())
        },
        "endBackgroundTask": { daemon, request in
            let client = try request.client()
            return try daemon.activation.endBackgroundTask(client, Int(try request.integer("task")))
        },
    ]
}
