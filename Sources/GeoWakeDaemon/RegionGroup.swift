import GeoWakeCore
import Geofencing
import RegionIndex
import Regions

/// The regions of every client with one rule set: one `RegionMonitor` over one index, each region with its owner
/// and the state last stored for it. The stored state follows every change the monitor decides, event or not.
struct RegionGroup {
    typealias Entry = SharedRegions.Entry

    private(set) var monitor: RegionMonitor<RegionIndex>
    private(set) var entries = RegionEntries()
    /// Regions no accepted fix has decided yet: their state is stored once a fix decides it, event or not.
    private var undecided: Set<RegionHandle> = []
    /// Regions with `notifyOnEntry` or `notifyOnExit` false: they can change state without an event.
    private var quiet: Set<RegionHandle> = []
    /// The quiet regions that may change state: those inside, and those a fix lay in within the debounce (a
    /// pending entry starts only at such a fix), each with the last instant it was seen so. Far fewer than `quiet`.
    private var watched: [RegionHandle: Timestamp] = [:]

    /// A region leaving this group for another, with what its monitor knew about it.
    struct Moving {
        var region: Region
        var entry: Entry
        var record: RegionMonitorSnapshot.RegionRecord?
    }

    init(rules: RegionMonitorConfiguration) throws(ProtocolError) {
        monitor = RegionMonitor(regions: RegionIndex(), configuration: try rules.validated())
    }

    /// A group restored from the store: its regions loaded under their shared ids (`RegionLoader`, as `locate` loads
    /// a file, validated once), the index built once over all of them (adding a million one by one rebuilt it again
    /// and again), each region with its stored state, `entries` in the order of `loaded`'s handles.
    init(rules: RegionMonitorConfiguration, restoring loaded: RegionStore, _ entries: [Entry]) throws {
        monitor = RegionMonitor(regions: RegionIndex(loaded), configuration: try rules.validated())
        let handles = loaded.handles
        // A loaded store's regions take its slots in order: the table is the entries as they are, where setting
        // them one by one was a third of the restore's last, single-threaded step.
        let inSlotOrder = handles.count == entries.count && handles.indices.allSatisfy { Int(handles[$0].slot.rawValue) == $0 }
        if inSlotOrder { self.entries = RegionEntries(inSlotOrder: entries) } else { self.entries.reserveCapacity(entries.count) }
        undecided.reserveCapacity(entries.lazy.filter { $0.state == .unknown }.count)
        for (handle, entry) in zip(handles, entries) {
            register(handle, quiet: !loaded.notifiesEntryAndExit(handle), entry, entered: inSlotOrder)
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    var hasDeferredRebuild: Bool { monitor.regions.hasDeferredRebuild }

    mutating func rebuildIndexIfDeferred() {
        monitor.rebuildIndexIfDeferred()
    }

    /// Adds regions a loader or another group validated already (their ids unique across clients) in one step, each
    /// with its stored state: inside is restored into the monitor without an event, so a restart never repeats an
    /// `enter`.
    mutating func add(validated regions: [Region], _ entries: [Entry]) throws -> [RegionHandle] {
        try add(validated: regions.map(FeatureDraft.init), entries)
    }

    /// The same for drafts a loader validated (a `monitor` request's), with no `Region` made for them. The index's
    /// rebuild waits for `rebuildIndexIfDeferred()`: `monitor`s come in bursts (`DaemonCore.rebuildDeferredIndexes`).
    mutating func add(validated drafts: [FeatureDraft], _ entries: [Entry]) throws -> [RegionHandle] {
        let handles = try monitor.add(validated: drafts, deferringRebuild: true)
        for (handle, (draft, entry)) in zip(handles, zip(drafts, entries)) {
            register(handle, quiet: !draft.notifyOnEntry || !draft.notifyOnExit, entry)
        }
        return handles
    }

    /// `entered`: `entries` has it already.
    private mutating func register(_ handle: RegionHandle, quiet isQuiet: Bool, _ entry: Entry, entered: Bool = false) {
        if !entered { entries[handle] = entry }
        if isQuiet { quiet.insert(handle) }
        switch entry.state {
        case .unknown:
            undecided.insert(handle)
        case .inside:
            let since = entry.since ?? Timestamp(secondsSince1970: 0)
            monitor.restore(inside: [(handle, since: since)], dwellReported: entry.dwellSent)
            if quiet.contains(handle) { watched[handle] = since }
        case .outside:
            break
        }
    }

    /// What `remove` would return now, with nothing removed.
    func removal(_ handle: RegionHandle, at now: Timestamp) -> (Entry, RegionEvent?)? {
        guard let entry = entries[handle] else { return nil }
        return (entry, monitor.exitOnRemoval(of: handle, at: now).map { Self.local($0, entry) })
    }

    /// Removes a region; returns its entry and, when it was inside, the final `exit` with reason `regionRemoved`.
    mutating func remove(_ handle: RegionHandle, at now: Timestamp) -> (Entry, RegionEvent?)? {
        guard let entry = forget(handle) else { return nil }
        var events: [RegionEvent] = []
        monitor.remove(handle, at: now, events: &events)
        return (entry, events.first.map { Self.local($0, entry) })
    }

    /// Takes regions out for another group, with no event: their stored state goes with them, and so does what the
    /// monitor was waiting for (a dwell), except a pending change, which the other rules decide afresh.
    mutating func take(_ handles: [RegionHandle], at now: Timestamp) -> [Moving] {
        let records = Dictionary(monitor.snapshot().regions.map { ($0.id, $0) }) { a, _ in a }
        var moving: [Moving] = []
        for handle in handles {
            guard let region = monitor.regions.region(handle), let entry = forget(handle) else { continue }
            var record = records[region.id]
            record?.changeDue = nil
            var ignored: [RegionEvent] = []
            monitor.remove(handle, at: now, events: &ignored)
            moving.append(Moving(region: region, entry: entry, record: record))
        }
        return moving
    }

    /// Puts regions taken from another group in, as they were; `lastFix` is that group's, for a group that has none.
    mutating func put(_ moving: [Moving], lastFix: Fix?) throws {
        var snapshot = monitor.snapshot()
        _ = try add(validated: moving.map(\.region), moving.map(\.entry))
        for item in moving {
            // The restore below replaces every track, so each region inside needs its record there.
            guard item.entry.state == .inside else { continue }
            snapshot.regions.append(item.record ?? RegionMonitorSnapshot.RegionRecord(
                id: item.region.id, insideSince: item.entry.since ?? Timestamp(secondsSince1970: 0)))
        }
        if snapshot.lastFix == nil { snapshot.lastFix = lastFix.map(RegionMonitorSnapshot.LastFix.init) }
        monitor.restore(snapshot)
    }

    /// A region whose stored state changed in one step, with the event to deliver (nil when none is due: a region
    /// first decided outside, or a change of a region that does not notify it).
    struct Change: Equatable {
        var entry: Entry
        var event: RegionEvent?
    }

    /// One fix through the monitor: events in contract order, each with the owner's own region id.
    mutating func update(with fix: Fix, at now: Timestamp) -> [Change] {
        var events: [RegionEvent] = []
        monitor.update(with: fix, at: now, events: &events)
        if !quiet.isEmpty {
            monitor.regions.forEachRegion(containing: fix.coordinate) { handle in
                if quiet.contains(handle) { watched[handle] = now }
            }
        }
        return changes(from: events, now: now, decidesNew: true)
    }

    /// Debounced changes and dwells that fell due by `now` without a fix.
    mutating func advance(to now: Timestamp) -> [Change] {
        var events: [RegionEvent] = []
        monitor.advance(to: now, events: &events)
        return changes(from: events, now: now, decidesNew: false)
    }

    /// The stored states the step's events and silent decisions change. Only a fix decides a new region (a restore
    /// after a move makes the monitor take its new regions as decided outside until then).
    private mutating func changes(from events: [RegionEvent], now: Timestamp, decidesNew: Bool) -> [Change] {
        var changes: [Change] = []
        var decided: Set<RegionHandle> = []
        for event in events {
            guard let handle = monitor.regions.handle(forID: event.regionID), var entry = entries[handle] else { continue }
            switch event.kind {
            case .enter where !event.crossed:
                entry.state = .inside
                entry.since = event.fix.time
                entry.dwellSent = false
            case .exit where !event.crossed:
                entry.state = .outside
                entry.since = event.fix.time
                entry.dwellSent = false
            case .dwell:
                entry.dwellSent = true
            default:
                break
            }
            entries[handle] = entry
            decided.insert(handle)
            if entry.state == .inside, quiet.contains(handle) { watched[handle] = now }
            changes.append(Change(entry: entry, event: Self.local(event, entry)))
        }
        let deciding = decidesNew ? undecided : []
        guard !deciding.isEmpty || !watched.isEmpty else { return changes }
        changes.reserveCapacity(changes.count + deciding.count + watched.count)
        for handle in deciding.union(watched.keys) where !decided.contains(handle) {
            guard var entry = entries[handle] else { continue }
            switch monitor.state(of: handle) {
            case .unknown:
                continue
            case .outside:
                guard entry.state != .outside else { continue }
                entry.state = .outside
                entry.since = now
            case .inside(let since):
                guard entry.state != .inside else { continue }
                entry.state = .inside
                entry.dwellSent = false
                entry.since = undecided.contains(handle) ? now : since
            }
            entries[handle] = entry
            changes.append(Change(entry: entry, event: nil))
        }
        if !undecided.isEmpty { undecided = undecided.filter { entries[$0]?.state == .unknown } }
        let debounce = monitor.configuration.debounce
        watched = watched.filter { handle, seen in entries[handle]?.state == .inside || seen + debounce >= now }
        return changes
    }

    private mutating func forget(_ handle: RegionHandle) -> Entry? {
        guard let entry = entries.removeValue(forKey: handle) else { return nil }
        undecided.remove(handle)
        quiet.remove(handle)
        watched[handle] = nil
        return entry
    }

    private static func local(_ event: RegionEvent, _ entry: Entry) -> RegionEvent {
        var local = event
        local.regionID = entry.regionID
        return local
    }
}
