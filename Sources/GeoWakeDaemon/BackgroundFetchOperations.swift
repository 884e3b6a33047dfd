import GeoWakeProtocol
import ProcessLifecycle

/// setBackgroundFetch / completeBackgroundFetch: a client asks to be launched or woken now and then to fetch
/// (iOS's background fetch), and reports what each fetch found.
extension DaemonCore {
    func setBackgroundFetch(_ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        let fetch = try request.typed(SetBackgroundFetchRequest.init(fields:))
        return try activation.setBackgroundFetch(client, minimumInterval: fetch.minimumInterval)
    }

    func completeBackgroundFetch(_ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        return try activation.completeBackgroundFetch(client, try request.typed(CompleteBackgroundFetchRequest.init(fields:)).result)
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
