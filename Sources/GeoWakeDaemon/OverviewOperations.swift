import GeoWakeCore
import GeoWakeProtocol

/// A `list` or `subscriptions` result before beacon regions join it and its page is cut.
struct Subscriptions {
    var subscriptions: [RegionListReply.Subscription]
    /// Each as `regionState` describes it.
    var regions: [RegionStateReply]
}

/// list, status, clients, subscriptions, disable, enable: each sees only the caller uid's clients.
extension Daemon {
    func list(_ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        return try addingBeacons(to: subscriptions(of: client), of: client, request)
    }

    func subscriptions(_ request: Request) throws -> [String: JSONValue] {
        let client = try existingClient(request)
        return try addingBeacons(to: subscriptions(of: client), of: client, request)
    }

    func clients(_ request: Request) throws -> [String: JSONValue] {
        ["clients": .array(addingBeacons(to: try clients(of: request.session.peer.uid), uid: request.session.peer.uid))]
    }

    func status(_ request: Request) throws -> [String: JSONValue] {
        var source: [String: JSONValue] = ["description": .string(self.source?.description ?? "none"),
                                           "state": .string(sourceStateDescription)]
        if let fix = lastFix {
            var last: [String: JSONValue] = ["lat": .number(fix.coordinate.latitude), "lon": .number(fix.coordinate.longitude)]
            if let time = fix.time { last["time"] = .string(Self.iso8601(time)) }
            if let accuracy = fix.horizontalAccuracy { last["hAcc"] = .number(accuracy) }
            source["lastFix"] = .object(last)
        }
        var result: [String: JSONValue] = ["source": .object(source),
                                           "clients": .array(addingBeacons(to: try clients(of: request.session.peer.uid), uid: request.session.peer.uid))]
        if let beaconSource = beacons.source { result["beaconSource"] = .object(beaconSourceStatus(beaconSource)) }
        return result
    }

    func disable(_ request: Request) throws -> [String: JSONValue] {
        let client = try existingClient(request)
        try storeWrite { transaction in try transaction.setDisabled(true, for: client) }
        if let connection = connection(of: client), connection != request.connection { emit(.closeAfterSending(connection)) }
        activation.disabled(client)
        return [:]
    }

    func enable(_ request: Request) throws -> [String: JSONValue] {
        let client = try existingClient(request)
        try storeWrite { transaction in try transaction.setDisabled(false, for: client) }
        activation.enabled(client)
        return [:]
    }

    func existingClient(_ request: Request) throws(ProtocolError) -> ClientKey {
        let key = ClientKey(uid: request.session.peer.uid, clientID: try request.string("client"))
        guard (try? store.clientExists(key)) == true else { throw ProtocolError("unknownClient", "no client \"\(key.clientID)\" for uid \(key.uid)") }
        return key
    }

    func subscriptions(of client: ClientKey) -> Subscriptions {
        var subscriptions = services.kinds(of: client).sorted { $0.key < $1.key }.map { kind, options in
            RegionListReply.Subscription(kind: kind, options: (try? JSONValue(parsing: options))?.object ?? [:])
        }
        if regions.count(of: client) > 0 {
            subscriptions.append(RegionListReply.Subscription(kind: "regions", options: regions.rules(of: client).options.object ?? [:]))
        }
        let list = regions.regionIDs(of: client).compactMap { id in regions.entry(client, id).map(describe) }
        return Subscriptions(subscriptions: subscriptions, regions: list)
    }

    func clients(of uid: UInt32) throws(ProtocolError) -> [[String: JSONValue]] {
        let summaries: [ClientSummary]
        do {
            summaries = try store.clientSummaries(of: uid)
        } catch {
            throw ProtocolError("internal", "the store could not be read: \(error)")
        }
        return summaries.map { summary in
            let key = ClientKey(uid: uid, clientID: summary.clientID)
            var kinds = Array(services.kinds(of: key).keys)
            if regions.count(of: key) > 0 { kinds.append("regions") }
            let entry: [String: JSONValue] = [
                "client": .string(key.clientID), "connected": .bool(connection(of: key) != nil), "disabled": .bool(summary.disabled),
                "pending": .integer(summary.pending), "lastSeq": .integer(summary.lastSeq),
                "regions": .integer(regions.count(of: key)), "subscriptions": .array(kinds.sorted().map(JSONValue.string)),
            ]
            return entry.merging(activation.status(of: key)) { a, _ in a }
        }
    }
}
