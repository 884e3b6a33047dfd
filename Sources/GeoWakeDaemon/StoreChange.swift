import GeoWakeCore
import GeoWakeProtocol

/// One change a request makes to the store, as a value: the decisions describe it (`RequestWrite`), the loop applies
/// it inside the batch's transaction (`StoreTransaction.apply`), and the request is answered once the store said what
/// it did (`StoreAnswer`). The checks that need the store's own rows (a disabled client, the clients per uid, an ack's
/// epoch) are made there, in the same transaction as the write.
enum StoreChange: Equatable {
    /// A client registering: its row added, or its launch command and options replaced (nil keeps them).
    case register(ClientKey, launch: String?, options: String?)
    /// The explicit stop: the client with its subscriptions, regions, beacon regions, ranging and outbox.
    case unregister(ClientKey)
    case setDisabled(Bool, ClientKey)
    case startService(ServiceKind, options: String, ClientKey)
    case stopService(ServiceKind, ClientKey)
    case setRegionRules(RegionRules, ClientKey)
    /// Regions a `monitor` added, `features[n]` the text of `ids[n]`, undecided until a fix, in the rows from
    /// `firstRow` on that the decisions reserved for them.
    case insertRegions(ids: [String], features: [String], ClientKey, firstRow: Int64)
    /// A region's removal, by the row its entry has.
    case deleteRegion(row: Int64)
    case saveBeaconRegion(BeaconRegionRecord)
    case deleteBeaconRegion(String, ClientKey)
    case startRanging(BeaconRangingRecord)
    case stopRanging(constraintKey: String, ClientKey)
    /// An ack of the client's events through `seq`, of the store epoch `epoch` when the client named one.
    case acknowledge(ClientKey, seq: Int64, epoch: Int64?)
}

/// What the store did with a change, for the request's reply.
enum StoreAnswer: Equatable {
    case done
    /// `lastSeq` is the client's last sequence number before this registration, 0 for a new client.
    case registered(created: Bool, pending: Int64, lastSeq: Int64, epoch: Int64)
    /// `reportedDropped`: the ack made room for an `eventsDropped` event, queued with it.
    case acknowledged(seq: Int64, pending: Int64, reportedDropped: Bool)
}

/// What one request writes, applied in a savepoint of its batch's transaction so that it fails alone: its changes,
/// then its events (a removed region's `exit`), queued as a fix's are.
struct RequestWrite: Equatable {
    var changes: [StoreChange]
    var events: [ClientEvent] = []
    /// Whether its reply waits for the turn's sync (every request but an ack: see `DaemonStore.write`).
    var synced = true

    /// What the store did: an answer for each change, and what the events became in the outboxes.
    struct Outcome: Equatable {
        var answers: [StoreAnswer]
        var queued: [QueuedEvent]
    }

    /// The request's reply, made from what the store did once the write committed.
    typealias Reply = (Outcome) throws -> [String: JSONValue]
}

extension StoreTransaction {
    /// Applies a change; a `ProtocolError` it throws fails its request alone.
    func apply(_ change: StoreChange, maximumPending: Int, at now: Timestamp) throws -> StoreAnswer {
        switch change {
        case .register(let key, let launch, let options):
            return try register(key, launch: launch, options: options)
        case .unregister(let client):
            try deleteBeacons(of: client)
            try deleteClient(client)
        case .setDisabled(let disabled, let client):
            try setDisabled(disabled, for: client)
        case .startService(let kind, let options, let client):
            try save(SubscriptionRecord(client, kind: kind, options: options))
        case .stopService(let kind, let client):
            try deleteSubscription(kind, of: client)
        case .setRegionRules(let rules, let client):
            try setRegionRules(rules, for: client)
        case .insertRegions(let ids, let features, let client, let firstRow):
            try insertRegions(ids, features: features, of: client, firstRow: firstRow)
        case .deleteRegion(let row):
            try deleteRegion(row: row)
        case .saveBeaconRegion(let record):
            try save(record)
        case .deleteBeaconRegion(let id, let client):
            try deleteBeaconRegion(id, of: client)
        case .startRanging(let record):
            try save(record)
        case .stopRanging(let key, let client):
            try deleteRanging(key, of: client)
        case .acknowledge(let client, let seq, let epoch):
            return try acknowledge(client, seq: seq, epoch: epoch, maximumPending: maximumPending, at: now)
        }
        return .done
    }

    private func register(_ key: ClientKey, launch: String?, options: String?) throws -> StoreAnswer {
        let existing = try client(key)
        if let existing {
            guard !existing.disabled else { throw ProtocolError("clientDisabled", "\(key.clientID) is disabled") }
            try updateRegistration(of: key, launch: launch, options: options)
        } else {
            guard try clientCount(uid: key.uid) < DaemonCore.maximumClientsPerUID else {
                throw ProtocolError("tooManyClients", "uid \(key.uid) has \(DaemonCore.maximumClientsPerUID) clients already")
            }
            try insert(ClientRecord(key, launch: launch, options: options))
        }
        return .registered(created: existing == nil, pending: Int64(try outboxCount(of: key)), lastSeq: existing?.lastSeq ?? 0, epoch: epoch)
    }

    /// An ack of an earlier epoch (a client that handled events a power cut then took from the store) acknowledges
    /// only the events it can name: those of its epoch up to its seq, never a later epoch's event that reuses the
    /// number.
    private func acknowledge(_ client: ClientKey, seq given: Int64, epoch: Int64?, maximumPending: Int, at now: Timestamp) throws -> StoreAnswer {
        var seq = given
        let last = try lastSeq(of: client)
        if let epoch, epoch < self.epoch {
            let later = try firstSeq(of: client, afterEpoch: epoch)
            seq = min(seq, last, (later ?? Int64.max) - 1)
        }
        guard seq <= last else { throw ProtocolError.badRequest("\"seq\" \(seq) is beyond the last assigned \(last)") }
        let reported = try acknowledge(client, through: seq, maximumPending: maximumPending, at: now)
        return .acknowledged(seq: seq, pending: Int64(try pendingCount(of: client)), reportedDropped: reported)
    }
}
