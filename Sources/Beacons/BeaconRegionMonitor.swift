import GeoWakeCore

/// A beacon region's enter or exit.
public struct BeaconRegionEvent: Hashable, Sendable {
    /// `.exit` or `.enter`; exits sort first at one instant.
    public var kind: RegionEvent.Kind
    public var regionID: String
    public var time: Timestamp
    /// The sighted beacon that entered, or for an exit the last one seen.
    public var beacon: Beacon

    public init(kind: RegionEvent.Kind, regionID: String, time: Timestamp, beacon: Beacon) {
        self.kind = kind
        self.regionID = regionID
        self.time = time
        self.beacon = beacon
    }

    /// The contract's order: time, then exit before enter, then region id in byte order.
    public static func contractOrder(_ a: BeaconRegionEvent, _ b: BeaconRegionEvent) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.kind != b.kind { return a.kind < b.kind }
        return a.regionID.utf8.lexicographicallyPrecedes(b.regionID.utf8)
    }
}

/// Beacon-region monitoring as Core Location does it: a region starts outside, the first matching sighting enters
/// it, and it exits `exitTimeout` seconds after the last matching sighting. An exit falling due at the very instant
/// of a sighting fires before that sighting is applied, so a beacon seen exactly at the timeout exits and re-enters.
public struct BeaconRegionMonitor: LocationService {
    public typealias Input = BeaconSighting
    public typealias Event = BeaconRegionEvent

    private struct State {
        var inside = false
        var lastSeen = Timestamp(millisecondsSince1970: 0)
        var lastBeacon: Beacon?
    }

    public let regions: [BeaconRegion]
    public let exitTimeoutMilliseconds: Int64
    private var states: [State]
    /// Region indices by UUID: a sighting is checked only against regions that can match it.
    private let regionsByUUID: [BeaconUUID: [Int]]
    /// Indices of regions inside, whose exits are pending.
    private var insideRegions: [Int] = []
    private var earliestExit: Timestamp?
    private var clock: Timestamp?
    private var entered: [BeaconRegionEvent] = []

    public init(regions: [BeaconRegion], exitTimeout: Double = 30) {
        self.regions = regions
        self.exitTimeoutMilliseconds = Int64((exitTimeout * 1000).rounded())
        self.states = Array(repeating: State(), count: regions.count)
        var byUUID: [BeaconUUID: [Int]] = [:]
        for (i, region) in regions.enumerated() { byUUID[region.uuid, default: []].append(i) }
        self.regionsByUUID = byUUID
    }

    public var nextDeadline: Timestamp? { earliestExit }

    public func isInside(_ regionID: String) -> Bool {
        guard let i = regions.firstIndex(where: { $0.id == regionID }) else { return false }
        return states[i].inside
    }

    public mutating func update(with sighting: BeaconSighting, at now: Timestamp, events: inout [BeaconRegionEvent]) {
        if let clock, now < clock { return }
        advance(to: now, events: &events)
        guard let candidates = regionsByUUID[sighting.beacon.uuid] else { return }
        entered.removeAll(keepingCapacity: true)
        for i in candidates where regions[i].matches(sighting.beacon) {
            states[i].lastSeen = now
            states[i].lastBeacon = sighting.beacon
            if !states[i].inside {
                states[i].inside = true
                insideRegions.append(i)
                if regions[i].notifyOnEntry {
                    entered.append(BeaconRegionEvent(kind: .enter, regionID: regions[i].id, time: now,
                                                     beacon: sighting.beacon))
                }
            }
        }
        // A sighting can push back the earliest exit too, so the live caller's timer is not set too early.
        var earliest: Timestamp?
        for i in insideRegions where earliest == nil || exitDue(states[i]) < earliest! { earliest = exitDue(states[i]) }
        earliestExit = earliest
        if entered.count > 1 { entered.sort(by: BeaconRegionEvent.contractOrder) }
        events.append(contentsOf: entered)
    }

    public mutating func advance(to now: Timestamp, events: inout [BeaconRegionEvent]) {
        if let clock, now < clock { return }
        clock = now
        guard let earliest = earliestExit, earliest <= now else { return }
        let firstNew = events.count
        var stillInside: [Int] = []
        stillInside.reserveCapacity(insideRegions.count)
        var next: Timestamp?
        for i in insideRegions {
            let due = exitDue(states[i])
            if due <= now {
                states[i].inside = false
                if regions[i].notifyOnExit, let beacon = states[i].lastBeacon {
                    events.append(BeaconRegionEvent(kind: .exit, regionID: regions[i].id, time: due, beacon: beacon))
                }
            } else {
                stillInside.append(i)
                if next == nil || due < next! { next = due }
            }
        }
        insideRegions = stillInside
        earliestExit = next
        if events.count - firstNew > 1 { events[firstNew...].sort(by: BeaconRegionEvent.contractOrder) }
    }

    private func exitDue(_ state: State) -> Timestamp {
        Timestamp(millisecondsSince1970: state.lastSeen.millisecondsSince1970 + exitTimeoutMilliseconds)
    }

    /// A region that is inside: its last matching sighting's time and beacon; nil when outside. What a store keeps
    /// so that a restarted monitor neither repeats the `enter` nor exits before its time.
    public func lastSighting(of regionID: String) -> (time: Timestamp, beacon: Beacon)? {
        guard let i = regions.firstIndex(where: { $0.id == regionID }), states[i].inside,
              let beacon = states[i].lastBeacon else { return nil }
        return (states[i].lastSeen, beacon)
    }

    /// Puts a region back inside, as `lastSighting(of:)` described it, without an event.
    public mutating func restore(inside regionID: String, lastSeen: Timestamp, beacon: Beacon) {
        guard let i = regions.firstIndex(where: { $0.id == regionID }), !states[i].inside else { return }
        states[i] = State(inside: true, lastSeen: lastSeen, lastBeacon: beacon)
        insideRegions.append(i)
        let due = exitDue(states[i])
        if earliestExit == nil || due < earliestExit! { earliestExit = due }
    }

    /// Fires every pending exit, as `--flush` does at the end of a trace.
    public mutating func flush(events: inout [BeaconRegionEvent]) {
        guard let last = insideRegions.map({ states[$0].lastSeen }).max() else { return }
        advance(to: Timestamp(millisecondsSince1970: last.millisecondsSince1970 + exitTimeoutMilliseconds),
                events: &events)
    }
}
