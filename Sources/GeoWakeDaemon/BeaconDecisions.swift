import Beacons
import GeoWakeCore
import JSONLines
import GeoWakeProtocol

/// The beacon side's decisions: sightings through `BeaconSubscriptions`; region events and states (and a trace's
/// position) as one `StoreBatch` per input; range reports straight to connected clients; the source's health as
/// `status` events for beacon subscribers.
extension DaemonCore {
    /// A trace's sightings in order; at its end, ranging finishes and beacon subscribers hear that it ended.
    func decideTrace(_ sightings: [BeaconSighting], position: Int, ended: Bool, at now: Timestamp) {
        var outcome = BeaconSubscriptions.Outcome()
        see(sightings, &outcome)
        var status: [ClientEvent] = []
        if ended {
            beacons.subscriptions.finishRanging(outcome: &outcome)
            status = beaconHealthEvents("ended", "the beacon trace was replayed to its end", at: now)
        }
        storeBeacons(outcome, status: status, position: position, at: now)
    }

    /// A live scanner's sightings or state; neither counts while no client monitors or ranges beacons.
    func decide(_ item: BeaconSource.Item, at now: Timestamp) {
        guard beacons.state != "idle" else { return }
        var outcome = BeaconSubscriptions.Outcome()
        var status: [ClientEvent] = []
        switch item {
        case .sightings(let sightings): see(sightings, &outcome)
        case .running: status = beaconHealthEvents("running", "beacon sightings are flowing", at: now)
        case .unavailable(let reason): status = beaconHealthEvents("unavailable", reason, at: now)
        case .ended(let reason): status = beaconHealthEvents("ended", reason, at: now)
        }
        storeBeacons(outcome, status: status, position: nil, at: now)
    }

    /// Live regions whose exit timeout passed by `now` exit.
    func decideBeaconDeadline(at now: Timestamp) {
        guard let due = beacons.subscriptions.nextDeadline, due <= now else { return }
        var outcome = BeaconSubscriptions.Outcome()
        beacons.subscriptions.advance(to: now, outcome: &outcome)
        storeBeacons(outcome, status: [], position: nil, at: now)
    }

    private func see(_ sightings: [BeaconSighting], _ outcome: inout BeaconSubscriptions.Outcome) {
        for sighting in sightings {
            beacons.subscriptions.update(with: sighting, outcome: &outcome)
            beacons.lastSighting = sighting
        }
    }

    /// Records a health change, as `status` events (`"source":"beacons"`) for every beacon subscriber; none for the
    /// first `running`, nor for a state already announced.
    private func beaconHealthEvents(_ state: String, _ message: String, at now: Timestamp) -> [ClientEvent] {
        let previous = beacons.announced
        beacons.state = state
        beacons.message = state == "running" ? nil : message
        guard previous != state else { return [] }
        beacons.announced = state
        if previous == nil && state == "running" { return [] }
        logger.notice("beacon source health", metadata: ["state": "\(state)", "message": "\(message)"])
        let line = EventLines.status(state, message, at: now, source: "beacons")
        return beacons.subscriptions.clients.sorted().map { ClientEvent(client: $0, line: line) }
    }

    /// Range reports go to whoever is connected; then one batch: region states that changed, their events (launch
    /// reason `beacon`), status events after them (a trace's `ended` comes last) and a trace's position.
    private func storeBeacons(_ outcome: BeaconSubscriptions.Outcome, status: [ClientEvent], position: Int?, at now: Timestamp) {
        sendRanges(outcome.ranges)
        var batch = StoreBatch(time: beacons.lastSighting?.time ?? now)
        batch.events = outcome.regionEvents.map { owner, event in
            var writer = JSONLineWriter(reservingCapacity: 192)
            writer.beaconRegionEventLine(event)
            return ClientEvent(client: owner, launchReason: .beacon, line: ClientServices.object(&writer))
        } + status
        batch.beaconRegions = outcome.changed.compactMap { key in
            beacons.subscriptions.region(key.owner, key.regionID).map(Self.beaconRegionRecord)
        }
        if let position, let key = beacons.positionKey { batch.sourcePosition = (key, position) }
        store(batch)
    }

    /// Range reports are a live stream: sent to a connected client whose buffer has room, never stored.
    private func sendRanges(_ ranges: [(ClientKey, BeaconRange)]) {
        guard !ranges.isEmpty else { return }
        var writer = JSONLineWriter(reservingCapacity: 192)
        for (owner, range) in ranges {
            guard let connection = connection(of: owner) else { continue }
            writer.beaconRangeLine(range)
            emit(.sendIfRoom(connection, Array("{\"type\":\"ranging\",\"event\":\(ClientServices.object(&writer))}\n".utf8)))
        }
    }
}
