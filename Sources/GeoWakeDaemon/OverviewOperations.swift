import GeoWakeCore
import GeoWakeProtocol

/// A `list` or `subscriptions` result before beacon regions join it and its page is cut.
struct Subscriptions {
    var subscriptions: [RegionListReply.Subscription]
    /// Each as `regionState` describes it.
    var regions: [RegionStateReply]
}

/// list, status, clients, subscriptions, disable, enable: each sees only the caller uid's clients.
extension DaemonCore {
    func list(_ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        return try addingBeacons(to: subscriptions(of: client), of: client, request)
    }

    func subscriptions(_ request: Request) throws -> [String: JSONValue] {
        let client = try existingClient(request)
        return try addingBeacons(to: subscriptions(of: client), of: client, request)
    }

    func clients(_ request: Request) throws -> [String: JSONValue] {
        ClientsReply(clients: try clients(of: request.session.peer.uid)).fields
    }

    func status(_ request: Request) throws -> [String: JSONValue] {
        let lastFix = lastFix.map { fix in
            StatusReply.LastFix(latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude, time: fix.time.map(Self.iso8601),
                                horizontalAccuracy: fix.horizontalAccuracy)
        }
        return StatusReply(source: StatusReply.Source(description: source?.description ?? "none", state: sourceStateDescription, lastFix: lastFix),
                           beaconSource: beacons.sourceDescription.map(beaconSourceStatus), clients: try clients(of: request.session.peer.uid)).fields
    }

    func disable(_ request: Request) throws -> OperationOutcome {
        let client = try existingClient(request)
        return .write(RequestWrite(changes: [.setDisabled(true, client)])) { [self] _ in
            // The connection registered as the client closes once its last line is sent, the reply to a client's own
            // `disable` included.
            if let connection = connection(of: client) { emit(.closeAfterSending(connection)) }
            emit(.tell(.disabled(client)))
            return [:]
        }
    }

    func enable(_ request: Request) throws -> OperationOutcome {
        let client = try existingClient(request)
        return .write(RequestWrite(changes: [.setDisabled(false, client)])) { [self] _ in
            emit(.tell(.enabled(client)))
            return [:]
        }
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

    /// The uid's clients, beacon regions counted among their regions and `ranging` among their subscriptions.
    func clients(of uid: UInt32) throws(ProtocolError) -> [ClientStatus] {
        let summaries: [ClientSummary]
        do {
            summaries = try store.clientSummaries(of: uid)
        } catch {
            throw ProtocolError("internal", "the store could not be read: \(error)")
        }
        return summaries.map { summary in
            let key = ClientKey(uid: uid, clientID: summary.clientID)
            var kinds = Set(services.kinds(of: key).keys)
            let beaconRegions = beacons.subscriptions.count(of: key)
            if regions.count(of: key) + beaconRegions > 0 { kinds.insert("regions") }
            if beacons.subscriptions.ranging[key] != nil { kinds.insert("ranging") }
            return ClientStatus(client: key.clientID, connected: connection(of: key) != nil, disabled: summary.disabled,
                                pending: Int64(summary.pending), lastSeq: summary.lastSeq, regions: Int64(regions.count(of: key) + beaconRegions),
                                subscriptions: kinds.sorted(), app: activation.status(of: key))
        }
    }
}
