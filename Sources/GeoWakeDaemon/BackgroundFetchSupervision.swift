import Foundation
import GeoWakeCore
import GeoWakeProtocol
import ProcessLifecycle

/// The launcher's side of background fetch: the decisions are `AppLifecycle`'s (`AppLifecycleFetch.swift`); here they
/// are stored and the `fetch` messages sent.
extension ProcessSupervisor {
    public func setBackgroundFetch(_ client: ClientKey, minimumInterval: Double?) throws(ProtocolError) -> [String: JSONValue] {
        // A fetch launches the client when it is not running: without a command it never could.
        if minimumInterval != nil, launchCommand(client) == nil {
            throw ProtocolError.badRequest("background fetch launches the client: register it with \"launch\" first")
        }
        let now = self.now
        let schedule = lifecycle.setBackgroundFetch(Self.name(client), minimumInterval: minimumInterval, at: now)
        persist()
        return schedule.map { Self.fetchReply($0, at: now).fields } ?? [:]
    }

    public func completeBackgroundFetch(_ client: ClientKey, _ result: BackgroundFetchResult) throws(ProtocolError) -> [String: JSONValue] {
        let name = Self.name(client), now = self.now
        guard let actions = lifecycle.completeBackgroundFetch(name, result, at: now) else {
            throw ProtocolError(.noFetch, "no background fetch of \(client.clientID) is running")
        }
        perform(actions)
        persist()
        log.info("background fetch ended", metadata: ["client": "\(client.clientID)", "result": "\(result.rawValue)"])
        return lifecycle.apps[name]?.fetch.map { Self.fetchReply($0, at: now).fields } ?? [:]
    }

    /// `{"type":"fetch","budgetLeft":S}` on each registered connection of a client whose fetch runs, once per
    /// connection: a thawed or background process at the end of the turn its fetch began, a launched one after its
    /// `register` reply (this runs after the turn's requests), a reconnected one again.
    func sendFetchNotices() {
        fetchToldOn = fetchToldOn.filter { lifecycle.apps[Self.name($0.key)]?.fetch?.isRunning == true }
        guard let daemon = owner else { return }
        let now = self.now
        for (name, app) in lifecycle.apps where app.fetch?.isRunning == true {
            let client = key(name)
            guard let connection = daemon.core.connection(of: client), fetchToldOn[client] != connection else { continue }
            let left = lifecycle.budgetLeft(name, at: now) ?? 0
            daemon.core.emit(.send(connection, ServerNotice.fetch(budgetLeft: left).line, afterSync: false))
            fetchToldOn[client] = connection
        }
    }

    /// The schedule as `status` and the fetch replies show it.
    static func fetchReply(_ fetch: BackgroundFetchSchedule, at now: Timestamp) -> BackgroundFetchReply {
        BackgroundFetchReply(minimumInterval: fetch.minimumInterval, interval: fetch.interval, running: fetch.isRunning,
                             fetches: Int64(fetch.started), nextIn: fetch.isRunning ? nil : max(0, fetch.due - now),
                             lastResult: fetch.lastResult)
    }
}
