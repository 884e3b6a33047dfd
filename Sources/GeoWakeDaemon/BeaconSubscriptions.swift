import Beacons
import GeoWakeCore

/// Every client's beacon regions and ranging constraints, run over the daemon's beacon sightings.
///
/// Each region has a `BeaconRegionMonitor` of its own, so regions come and go without disturbing the others and
/// each reports exactly what `geowake replay --beacons` reports for it; a sighting reaches only the regions of its
/// UUID. Each client's constraint has a `BeaconRanger` of its own.
struct BeaconSubscriptions {
    struct Monitored {
        var owner: ClientKey
        var region: BeaconRegion
        /// The feature as the client gave it, for the store.
        var feature: String
        var monitor: BeaconRegionMonitor
        /// When the region last became inside or outside; nil while nothing decided it.
        var since: Timestamp?

        var lastSighting: (time: Timestamp, beacon: Beacon)? { monitor.lastSighting(of: region.id) }
    }

    /// What `startRangingBeacons` names: a UUID, optionally narrowed by major and minor.
    struct Constraint: Hashable, Comparable {
        var uuid: BeaconUUID
        var major: UInt16?
        var minor: UInt16?

        func matches(_ beacon: Beacon) -> Bool {
            beacon.uuid == uuid && (major == nil || major == beacon.major) && (minor == nil || minor == beacon.minor)
        }

        /// How the store and `list` key it: `uuid`, `uuid/major` or `uuid/major/minor` (`*` for a minor-only one).
        var key: String {
            [uuid.description, major.map(String.init) ?? (minor == nil ? nil : "*"), minor.map(String.init)]
                .compactMap { $0 }.joined(separator: "/")
        }

        static func < (a: Constraint, b: Constraint) -> Bool { a.key.utf8.lexicographicallyPrecedes(b.key.utf8) }
    }

    struct RegionKey: Hashable {
        var owner: ClientKey
        var regionID: String
    }

    /// One turn's results: region events with their owners, the regions whose stored state changed, range reports.
    struct Outcome {
        var regionEvents: [(ClientKey, BeaconRegionEvent)] = []
        var changed: Set<RegionKey> = []
        var ranges: [(ClientKey, BeaconRange)] = []
    }

    let exitTimeout: Double
    private(set) var regions: [ClientKey: [String: Monitored]] = [:]
    private var byUUID: [BeaconUUID: Set<RegionKey>] = [:]
    private var inside: Set<RegionKey> = []
    private(set) var ranging: [ClientKey: [Constraint: BeaconRanger]] = [:]

    init(exitTimeout: Double) { self.exitTimeout = exitTimeout }

    var isEmpty: Bool { regions.isEmpty && ranging.isEmpty }

    var clients: Set<ClientKey> { Set(regions.keys).union(ranging.keys) }

    func count(of owner: ClientKey) -> Int { regions[owner]?.count ?? 0 }

    func region(_ owner: ClientKey, _ regionID: String) -> Monitored? { regions[owner]?[regionID] }

    /// Adds a region, outside, or inside as the store last saw it (no event: a restart never repeats an `enter`).
    mutating func add(_ region: BeaconRegion, feature: String, owner: ClientKey, since: Timestamp? = nil,
                      lastSighting: (time: Timestamp, beacon: Beacon)? = nil) {
        var monitor = BeaconRegionMonitor(regions: [region], exitTimeout: exitTimeout)
        let key = RegionKey(owner: owner, regionID: region.id)
        if let lastSighting {
            monitor.restore(inside: region.id, lastSeen: lastSighting.time, beacon: lastSighting.beacon)
            inside.insert(key)
        }
        regions[owner, default: [:]][region.id] = Monitored(owner: owner, region: region, feature: feature,
                                                            monitor: monitor, since: since)
        byUUID[region.uuid, default: []].insert(key)
    }

    /// Removes a region; returns it and, when it was inside, its last sighting (for the `regionRemoved` exit).
    mutating func remove(_ owner: ClientKey, _ regionID: String) -> Monitored? {
        guard let removed = regions[owner]?.removeValue(forKey: regionID) else { return nil }
        if regions[owner]?.isEmpty == true { regions[owner] = nil }
        let key = RegionKey(owner: owner, regionID: regionID)
        byUUID[removed.region.uuid]?.remove(key)
        if byUUID[removed.region.uuid]?.isEmpty == true { byUUID[removed.region.uuid] = nil }
        inside.remove(key)
        return removed
    }

    mutating func removeAll(of owner: ClientKey) {
        for regionID in Array((regions[owner] ?? [:]).keys) { _ = remove(owner, regionID) }
        ranging[owner] = nil
    }

    /// Starting a constraint already ranged keeps its ranger.
    mutating func startRanging(_ constraint: Constraint, for owner: ClientKey) {
        if ranging[owner]?[constraint] == nil { ranging[owner, default: [:]][constraint] = BeaconRanger() }
    }

    mutating func stopRanging(_ constraint: Constraint, for owner: ClientKey) {
        ranging[owner]?[constraint] = nil
        if ranging[owner]?.isEmpty == true { ranging[owner] = nil }
    }

    /// One sighting: exits that fell due by its time first (every region), then the regions of its UUID, then
    /// ranging. Region events come out in the contract's order (time, exit before enter, region id).
    mutating func update(with sighting: BeaconSighting, outcome: inout Outcome) {
        let first = outcome.regionEvents.count
        advanceRegions(to: sighting.time, outcome: &outcome)
        for key in byUUID[sighting.beacon.uuid] ?? [] {
            guard var monitored = regions[key.owner]?[key.regionID], monitored.region.matches(sighting.beacon) else { continue }
            var events: [BeaconRegionEvent] = []
            if monitored.lastSighting == nil { monitored.since = sighting.time }
            monitored.monitor.update(with: sighting, at: sighting.time, events: &events)
            inside.insert(key)
            record(events, monitored, key, outcome: &outcome)
        }
        if outcome.regionEvents.count - first > 1 { sortEvents(&outcome.regionEvents, from: first) }
        for (owner, constraints) in ranging {
            for (constraint, var ranger) in constraints {
                var ranges: [BeaconRange] = []
                ranger.advance(to: sighting.time, events: &ranges)
                if constraint.matches(sighting.beacon) { ranger.update(with: sighting, at: sighting.time, events: &ranges) }
                ranging[owner]![constraint] = ranger
                outcome.ranges += ranges.map { (owner, $0) }
            }
        }
    }

    /// The clock alone: exits and ranging reports that fell due by `now` (a live source's timer).
    mutating func advance(to now: Timestamp, outcome: inout Outcome) {
        let first = outcome.regionEvents.count
        advanceRegions(to: now, outcome: &outcome)
        if outcome.regionEvents.count - first > 1 { sortEvents(&outcome.regionEvents, from: first) }
        for (owner, constraints) in ranging {
            for (constraint, var ranger) in constraints where ranger.nextDeadline.map({ $0 <= now }) ?? false {
                var ranges: [BeaconRange] = []
                ranger.advance(to: now, events: &ranges)
                ranging[owner]![constraint] = ranger
                outcome.ranges += ranges.map { (owner, $0) }
            }
        }
    }

    /// At the end of a trace: each ranger's last second is reported (its end is always reached), as
    /// `geowake replay --service ranging` does; exits still pending are not (as without `--flush`).
    mutating func finishRanging(outcome: inout Outcome) {
        for (owner, constraints) in ranging {
            for (constraint, var ranger) in constraints {
                guard let due = ranger.nextDeadline else { continue }
                var ranges: [BeaconRange] = []
                ranger.advance(to: due, events: &ranges)
                ranging[owner]![constraint] = ranger
                outcome.ranges += ranges.map { (owner, $0) }
            }
        }
    }

    /// The earliest pending exit or ranging report.
    var nextDeadline: Timestamp? {
        let exits = inside.compactMap { regions[$0.owner]?[$0.regionID]?.monitor.nextDeadline }
        let ticks = ranging.values.flatMap { $0.values.compactMap(\.nextDeadline) }
        return (exits + ticks).min()
    }

    private mutating func advanceRegions(to now: Timestamp, outcome: inout Outcome) {
        for key in inside {
            guard var monitored = regions[key.owner]?[key.regionID],
                  let due = monitored.monitor.nextDeadline, due <= now else { continue }
            var events: [BeaconRegionEvent] = []
            monitored.monitor.advance(to: now, events: &events)
            if monitored.lastSighting == nil {
                monitored.since = due
                inside.remove(key)
            }
            record(events, monitored, key, outcome: &outcome)
        }
    }

    private mutating func record(_ events: [BeaconRegionEvent], _ monitored: Monitored, _ key: RegionKey,
                                 outcome: inout Outcome) {
        regions[key.owner]![key.regionID] = monitored
        outcome.changed.insert(key)
        outcome.regionEvents += events.map { (key.owner, $0) }
    }

    private func sortEvents(_ events: inout [(ClientKey, BeaconRegionEvent)], from first: Int) {
        events[first...].sort { a, b in
            if BeaconRegionEvent.contractOrder(a.1, b.1) { return true }
            if BeaconRegionEvent.contractOrder(b.1, a.1) { return false }
            return a.0 < b.0
        }
    }
}
