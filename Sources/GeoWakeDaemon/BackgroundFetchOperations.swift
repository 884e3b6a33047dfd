import Foundation
import GeoWakeProtocol
import ProcessLifecycle

/// setBackgroundFetch / completeBackgroundFetch: a client asks to be launched or woken now and then to fetch
/// (iOS's background fetch), and reports what each fetch found.
extension Daemon {
    func setBackgroundFetch(_ request: Request) throws -> [String: Any] {
        let client = try request.client()
        let value = request.fields["minimumInterval"]
        if value == nil || value is NSNull { return try activation.setBackgroundFetch(client, minimumInterval: nil) }
        let range = BackgroundFetchSchedule.allowedMinimum
        guard let seconds = jsonNumber(value), range.contains(seconds) else {
            throw ProtocolError.badRequest("\"minimumInterval\" must be a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), or null")
        }
        return try activation.setBackgroundFetch(client, minimumInterval: seconds)
    }

    func completeBackgroundFetch(_ request: Request) throws -> [String: Any] {
        let client = try request.client()
        guard let result = (request.fields["result"] as? String).flatMap(BackgroundFetchResult.init(rawValue:)) else {
            throw ProtocolError.badRequest("\"result\" must be \"newData\", \"noData\" or \"failed\"")
        }
        return try activation.completeBackgroundFetch(client, result)
    }
}

extension ClientActivation {
    public func setBackgroundFetch(_ client: ClientKey, minimumInterval: Double?) throws(ProtocolError) -> [String: Any] {
        throw ProtocolError("unsupported", "this daemon does not launch clients for background fetch")
    }

    public func completeBackgroundFetch(_ client: ClientKey, _ result: BackgroundFetchResult) throws(ProtocolError) -> [String: Any] {
        throw ProtocolError("unsupported", "this daemon does not launch clients for background fetch")
    }
}
