import GeoWakeProtocol
import ProcessLifecycle

/// setBackgroundFetch / completeBackgroundFetch: a client asks to be launched or woken now and then to fetch
/// (iOS's background fetch), and reports what each fetch found.
extension Daemon {
    func setBackgroundFetch(_ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        guard let value = request.fields.given("minimumInterval") else { return try activation.setBackgroundFetch(client, minimumInterval: nil) }
        let range = BackgroundFetchSchedule.allowedMinimum
        guard case .number(let seconds) = value, range.contains(seconds) else {
            throw ProtocolError.badRequest("\"minimumInterval\" must be a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), or null")
        }
        return try activation.setBackgroundFetch(client, minimumInterval: seconds)
    }

    func completeBackgroundFetch(_ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        guard let result = request["result"]?.string.flatMap(BackgroundFetchResult.init(rawValue:)) else {
            throw ProtocolError.badRequest("\"result\" must be \"newData\", \"noData\" or \"failed\"")
        }
        return try activation.completeBackgroundFetch(client, result)
    }
}

extension ClientActivation {
    public func setBackgroundFetch(_ client: ClientKey, minimumInterval: Double?) throws(ProtocolError) -> [String: JSONValue] {
        throw ProtocolError("unsupported", "this daemon does not launch clients for background fetch")
    }

    public func completeBackgroundFetch(_ client: ClientKey, _ result: BackgroundFetchResult) throws(ProtocolError) -> [String: JSONValue] {
        throw ProtocolError("unsupported", "this daemon does not launch clients for background fetch")
    }
}
