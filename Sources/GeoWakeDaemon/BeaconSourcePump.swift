import Beacons
import Foundation
import GeoWakeCore
import JSONLines
import GeoWakeProtocol

/// The daemon's beacon side: subscriptions, the source, and the source's health as beacon subscribers last heard it.
struct DaemonBeacons {
    var subscriptions: BeaconSubscriptions
    let source: BeaconSource?
    /// `idle` while no client monitors or ranges beacons, else `running`, `unavailable` or `ended`.
    var state = "idle"
    var message: String?
    var announced: String?
    var lastSighting: BeaconSighting?

    init(source: BeaconSource?, exitTimeout: Double) {
        self.source = source
        subscriptions = BeaconSubscriptions(exitTimeout: exitTimeout)
    }

    /// The store's `source` row for a beacon trace's position.
    var positionKey: String? { source.map { "beacons " + $0.description } }
}

/// The loop's side of the beacon source: sightings through `BeaconSubscriptions`, region events and states (and a
/// trace's position) committed in one transaction per turn, range reports straight to connected clients.
extension Daemon {
    /// Sightings of one turn at most, so requests and fixes are not kept waiting by a trace at speed 0.
    static let beaconBatch = 512

    func pumpBeacons() {
        guard let source = beacons.source else { return }
        updateDemand()   // a fix trace wanted from this turn on starts now, so both traces start on its clock
        updateBeaconDemand(source)
        var outcome = BeaconSubscriptions.Outcome()
        var health: (state: String, message: String)?
        var count = 0
        if source.isTrace {
            while count < Self.beaconBatch, let delay = source.delay(now: clock.monotonic(), fixOrigin: self.source?.replay?.origin), delay <= 0 {
                let sighting = source.next()
                beacons.subscriptions.update(with: sighting, outcome: &outcome)
                beacons.lastSighting = sighting
                count += 1
            }
            if count > 0 && source.traceEnded {
                beacons.subscriptions.finishRanging(outcome: &outcome)
                health = ("ended", "the beacon trace was replayed to its end")
            }
        } else {
            for item in source.take() {
                switch item {
                case .sightings(let sightings) where beacons.state != "idle":
                    for sighting in sightings {
                        beacons.subscriptions.update(with: sighting, outcome: &outcome)
                        beacons.lastSighting = sighting
                    }
                case .sightings: break
                case .running: health = ("running", "beacon sightings are flowing")
                case .unavailable(let reason): health = ("unavailable", reason)
                case .ended(let reason): health = ("ended", reason)
                }
                if let change = health, beacons.state != "idle" { announceBeaconHealth(change.state, change.message, outcome: &outcome) }
                health = nil
            }
            let now = clock.wall()
            if let due = beacons.subscriptions.nextDeadline, due <= now {
                beacons.subscriptions.advance(to: now, outcome: &outcome)
            }
        }
        var status: [(ClientKey, LaunchReason?, String)] = []
        if let health { status = beaconHealthEvents(health.state, health.message) }
        commitBeacons(outcome, status: status, position: count > 0 ? source.position : nil)
    }

    /// Seconds until the beacon side needs the loop: a trace's next sighting, or a live source's next exit or report.
    func beaconDelay() -> Double? {
        guard let source = beacons.source, beacons.state != "idle" else { return nil }
        if source.isTrace { return source.delay(now: clock.monotonic(), fixOrigin: self.source?.replay?.origin) }
        return beacons.subscriptions.nextDeadline.map { max(0, $0.secondsSince1970 - clock.wall().secondsSince1970) }
    }

    /// Scanning runs only while some client monitors or ranges beacons.
    private func updateBeaconDemand(_ source: BeaconSource) {
        let needed = !beacons.subscriptions.isEmpty
        if needed && beacons.state == "idle" {
            source.start(now: clock.monotonic())
            beacons.state = source.traceEnded ? "ended" : beacons.announced ?? "running"
        } else if !needed && beacons.state != "idle" {
            source.stop()
            beacons.state = "idle"
        }
    }

    /// Records a health change; returns nothing to send when it is the first healthy state or no change.
    private func announceBeaconHealth(_ state: String, _ message: String, outcome: inout BeaconSubscriptions.Outcome) {
        let events = beaconHealthEvents(state, message)
        commitBeacons(outcome, status: events, position: nil)
        outcome = BeaconSubscriptions.Outcome()
    }

    /// The change as `status` events (`"source":"beacons"`) for every beacon subscriber; none for the first
    /// `running`, nor for a state already announced.
    private func beaconHealthEvents(_ state: String, _ message: String) -> [(ClientKey, LaunchReason?, String)] {
        let previous = beacons.announced
        beacons.state = state
        beacons.message = state == "running" ? nil : message
        guard previous != state else { return [] }
        beacons.announced = state
        if previous == nil && state == "running" { return [] }
        logger.notice("beacon source health", metadata: ["state": "\(state)", "message": "\(message)"])
        var line = EventLines.status(state, message, at: clock.wall())
        line.removeLast()
        line += ",\"source\":\"beacons\"}"
        return beacons.subscriptions.clients.sorted().map { ($0, nil, line) }
    }

    /// Range reports go to whoever is connected; then one transaction: region states that changed, their events
    /// (launch reason `beacon`), status events after them (a trace's `ended` comes last) and a trace's position.
    private func commitBeacons(_ outcome: BeaconSubscriptions.Outcome, status: [(ClientKey, LaunchReason?, String)], position: Int?) {
        sendRanges(outcome.ranges)
        let events = outcome.regionEvents.map { owner, event in
            var writer = JSONLineWriter(reservingCapacity: 192)
            writer.beaconRegionEventLine(event)
            return (owner, LaunchReason.beacon, ClientServices.object(&writer))
        } + status
        if !outcome.changed.isEmpty || !events.isEmpty || position != nil {
            let now = beacons.lastSighting?.time ?? clock.wall()
            var queued: [QueuedEvent] = []
            do {
                try store.write { transaction in
                    for key in outcome.changed {
                        guard let monitored = beacons.subscriptions.region(key.owner, key.regionID) else { continue }
                        try Self.storeBeaconRegion(transaction, monitored)
                    }
                    queued = try enqueue(transaction, events, now: now)
                    if let position, let key = beacons.positionKey { try transaction.setSourcePosition(position, of: key) }
                }
            } catch {
                queued = []
                logger.error("cannot store beacon events", metadata: ["error": "\(error)"])
            }
            notify(events, queued: queued)
        }
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
