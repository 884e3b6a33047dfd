import Foundation
import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

/// Every client's regions in one `RegionMonitor` over one `RegionIndex`, each with its owner and last reported state,
/// so a fix costs one index query however many clients there are, and the daemon reports what `geowake replay` does
/// with the same configuration (hysteresis, debounce, accuracy gating, dwell per the contract).
struct SharedRegions {
    enum State: String {
        case inside, outside, unknown
    }

    struct Entry {
        var owner: ClientKey
        var regionID: String
        var state: State
        var since: Timestamp?
    }

    private(set) var monitor: RegionMonitor<RegionIndex>
    private(set) var entries: [RegionHandle: Entry] = [:]
    private var handles: [ClientKey: [String: RegionHandle]] = [:]
    /// Regions no accepted fix has decided yet: their state is stored once a fix decides it, event or not.
    private var undecided: Set<RegionHandle> = []

    init(configuration: RegionMonitorConfiguration = RegionMonitorConfiguration()) {
        monitor = RegionMonitor(regions: RegionIndex(), configuration: configuration)
    }

    func count(of owner: ClientKey) -> Int { handles[owner]?.count ?? 0 }

    func handle(_ owner: ClientKey, _ regionID: String) -> RegionHandle? { handles[owner]?[regionID] }

    func regionIDs(of owner: ClientKey) -> [String] { (handles[owner] ?? [:]).keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// Adds a region with its stored state: inside is restored into the monitor without an event, so a restart
    /// never repeats an `enter`.
    mutating func add(_ region: Region, owner: ClientKey, state: State, since: Timestamp?) throws {
        var shared = region
        shared.id = "\(owner.uid)\u{1F}\(owner.clientID)\u{1F}\(region.id)"
        let handle = try monitor.add(shared)
        entries[handle] = Entry(owner: owner, regionID: region.id, state: state, since: since)
        handles[owner, default: [:]][region.id] = handle
        switch state {
        case .unknown: undecided.insert(handle)
        case .inside: monitor.restore(inside: [(handle, since: since ?? Timestamp(secondsSince1970: 0))])
        case .outside: break
        }
    }

    /// Removes a region; returns its entry and, when it was inside, the final `exit` with reason `regionRemoved`.
    mutating func remove(_ owner: ClientKey, _ regionID: String, at now: Timestamp) -> (Entry, RegionEvent?)? {
        guard let handle = handles[owner]?.removeValue(forKey: regionID), let entry = entries.removeValue(forKey: handle) else {
            return nil
        }
        if handles[owner]?.isEmpty == true { handles[owner] = nil }
        var events: [RegionEvent] = []
        monitor.remove(handle, at: now, events: &events)
        undecided.remove(handle)
        return (entry, events.first.map { local($0, entry) })
    }

    mutating func removeAll(of owner: ClientKey, at now: Timestamp) {
        for regionID in regionIDs(of: owner) { _ = remove(owner, regionID, at: now) }
    }

    /// A region whose stored state changed with one fix, with the event to deliver (nil when none is due, e.g. a
    /// region first decided outside).
    struct Change {
        var entry: Entry
        var event: RegionEvent?
    }

    /// One fix through the monitor: events in contract order, each with the owner's own region id.
    mutating func update(with fix: Fix, at now: Timestamp) -> [Change] {
        var events: [RegionEvent] = []
        monitor.update(with: fix, at: now, events: &events)
        return changes(from: events, now: now)
    }

    /// Debounced changes and dwells that fell due by `now` without a fix (a live source's timer).
    mutating func advance(to now: Timestamp) -> [Change] {
        var events: [RegionEvent] = []
        monitor.advance(to: now, events: &events)
        return changes(from: events, now: now)
    }

    private mutating func changes(from events: [RegionEvent], now: Timestamp) -> [Change] {
        var changes: [Change] = []
        var decided: Set<RegionHandle> = []
        for event in events {
            guard let handle = monitor.regions.handle(forID: event.regionID), var entry = entries[handle] else { continue }
            switch event.kind {
            case .enter where !event.crossed:
                entry.state = .inside
                entry.since = event.fix.time
            case .exit where !event.crossed:
                entry.state = .outside
                entry.since = event.fix.time
            default:
                break
            }
            entries[handle] = entry
            decided.insert(handle)
            changes.append(Change(entry: entry, event: local(event, entry)))
        }
        for handle in undecided where !decided.contains(handle) {
            guard var entry = entries[handle] else { continue }
            switch monitor.state(of: handle) {
            case .unknown: continue
            case .outside: entry.state = .outside
            case .inside: entry.state = .inside
            }
            entry.since = now
            entries[handle] = entry
            changes.append(Change(entry: entry, event: nil))
        }
        undecided = undecided.filter { entries[$0]?.state == .unknown }
        return changes
    }

    private func local(_ event: RegionEvent, _ entry: Entry) -> RegionEvent {
        var local = event
        local.regionID = entry.regionID
        return local
    }

    /// Parses GeoJSON features (a FeatureCollection's bytes) into regions with the contract's rules.
    static func regions(fromFeatureCollection bytes: Data, scratchDirectory: String) throws(RegionLoadError) -> [Region] {
        let path = scratchDirectory + "/features-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).geojson"
        guard FileManager.default.createFile(atPath: path, contents: bytes) else {
            throw RegionLoadError(file: path, reason: "cannot write scratch file")
        }
        defer { unlink(path) }
        let store = try RegionLoader.load(path)
        return store.handles.compactMap { store.region($0) }
    }
}
