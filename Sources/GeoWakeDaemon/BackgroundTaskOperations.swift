import GeoWakeProtocol

/// beginBackgroundTask / endBackgroundTask: a launched or thawed client asks for more time than its budget.
extension DaemonCore {
    func beginBackgroundTask(_ request: Request) throws -> [String: JSONValue] {
        try activation.beginBackgroundTask(try request.client())
    }

    func endBackgroundTask(_ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        return try activation.endBackgroundTask(client, Int(try request.typed(EndBackgroundTaskRequest.init(fields:)).task))
    }
}
