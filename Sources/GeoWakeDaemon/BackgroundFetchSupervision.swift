import Foundation
import GeoWakeCore
import GeoWakeProtocol
import ProcessLifecycle

/// The launcher's side of background fetch: the decisions are `AppLifecycle`'s (`AppLifecycleFetch.swift`); here they
/// are stored and the `fetch` messages sent.
extension ProcessSupervisor {
    public func setBackgroundFetch(_ client: ClientKey, minimumInterval: Double?) throws(ProtocolError) -> [String: Any] {
        // A fetch launches the client when it is not running: without a command it never could.
        if minimumInterval != nil, launchCommand(client) == nil {
            throw ProtocolError.badRequest("background fetch launches the client: register it with \"launch\" first")
        }
        let now = clock()
        let schedule = lifecycle.setBackgroundFetch(Self.name(client), minimumInterval: minimumInterval, at: now)
        persist()
        return schedule.map { Self.fetchStatus($0, at: now) } ?? [:]
    }

    public func completeBackgroundFetch(_ client: ClientKey, _ result: BackgroundFetchResult) throws(ProtocolError) -> [String: Any] {
        let name = Self.name(client), now = clock()
        guard let actions = lifecycle.completeBackgroundFetch(name, result, at: now) else {
            throw ProtocolError(.noFetch, "no background fetch of \(client.clientID) is running")
        }
        fetchNotices.remove(client)
        perform(actions)
        persist()
        logger.info("background fetch ended", metadata: ["client": "\(client.clientID)", "result": "\(result.rawValue)"])
        return lifecycle.apps[name]?.fetch.map { Self.fetchStatus($0, at: now) } ?? [:]
    }

    /// `{"type":"fetch","budgetLeft":S}` to each client whose fetch began, once its process is registered: a thawed
    /// one at once, a launched one after its `register` reply (this runs after the loop turn's requests).
    func sendFetchNotices() {
        guard let daemon, !fetchNotices.isEmpty else { return }
        let now = clock()
        for client in fetchNotices.sorted() {
            let name = Self.name(client)
            guard lifecycle.apps[name]?.fetch?.isRunning == true else { fetchNotices.remove(client); continue }
            guard let connection = daemon.connection(for: client) else { continue }
            let left = lifecycle.budgetLeft(name, at: now) ?? 0
            connection.send(Array("{\"type\":\"fetch\",\"budgetLeft\":\(left)}\n".utf8))
            fetchNotices.remove(client)
        }
    }

    /// The schedule as `status` and the fetch replies show it.
    static func fetchStatus(_ fetch: BackgroundFetchSchedule, at now: Timestamp) -> [String: Any] {
        var fields: [String: Any] = ["minimumInterval": fetch.minimumInterval, "interval": fetch.interval,
                                     "running": fetch.isRunning, "fetches": fetch.started]
        if !fetch.isRunning { fields["nextIn"] = max(0, fetch.due - now) }
        if let result = fetch.lastResult { fields["lastResult"] = result.rawValue }
        return fields
    }
}
