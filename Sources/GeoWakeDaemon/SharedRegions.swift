import Foundation
import GeoWakeCore
import Geofencing
import GeoWakeProtocol
import RegionIndex
import Regions

/// Every client's regions, grouped by the region rules they follow: one `RegionMonitor` over one `RegionIndex` per
/// rule set in use (almost always one, `geowaked`'s defaults), so a fix costs one index query per rule set however
/// many clients there are, and each client gets what `geowake replay` gives with its rules.
struct SharedRegions {
    enum State: String {
        case inside, outside, unknown
    }

    struct Entry {
        /// The rowid of the region's row in the store: its state is saved by it, without a search by key.
        var row: Int64
        var owner: ClientKey
        var regionID: String
        var state: State
        var since: Timestamp?
        /// The `dwell` of the current stay was sent: a restart must not send it again.
        var dwellSent = false
    }

    typealias Change = RegionGroup.Change

    let defaults: RegionMonitorConfiguration
    private(set) var groups: [RegionMonitorConfiguration: RegionGroup] = [:]
    private var handles: [ClientKey: [String: RegionHandle]] = [:]
    private var chosen: [ClientKey: RegionRules] = [:]

    init(defaults: RegionMonitorConfiguration = RegionMonitorConfiguration()) throws(ProtocolError) {
        _ = try defaults.validated()
        self.defaults = defaults
    }

    var isEmpty: Bool { handles.isEmpty }

    var owners: Dictionary<ClientKey, [String: RegionHandle]>.Keys { handles.keys }

    func count(of owner: ClientKey) -> Int { handles[owner]?.count ?? 0 }

    func regionIDs(of owner: ClientKey) -> [String] { (handles[owner] ?? [:]).keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    func entry(_ owner: ClientKey, _ regionID: String) -> Entry? {
        guard let handle = handles[owner]?[regionID] else { return nil }
        return groups[rules(of: owner)]?.entries[handle]
    }

    /// The rules a client's regions follow: its own choice over the daemon's defaults.
    func rules(of owner: ClientKey) -> RegionMonitorConfiguration { chosen[owner]?.resolved(over: defaults) ?? defaults }

    /// The earliest instant a debounced change or a dwell falls due in any group.
    var nextDeadline: Timestamp? { groups.values.compactMap(\.monitor.nextDeadline).min() }

    /// Sets a client's rules; its regions move to the group of the new rules keeping their states (a pending
    /// debounced change is dropped: the new rules decide it afresh at the next fix). No event is produced.
    mutating func choose(_ choice: RegionRules, for owner: ClientKey, at now: Timestamp) throws {
        let old = rules(of: owner)
        chosen[owner] = choice == RegionRules() ? nil : choice
        let new = rules(of: owner)
        // Groups are taken out of the dictionary while they change, so that no copy of an index is made.
        guard new != old, let owned = handles[owner], !owned.isEmpty, var source = groups.removeValue(forKey: old) else { return }
        let moving = source.take(Array(owned.values), at: now)
        let lastFix = source.monitor.lastFix
        if !source.isEmpty { groups[old] = source }
        var target = try groups.removeValue(forKey: new) ?? RegionGroup(rules: new)
        try target.put(moving, lastFix: lastFix)
        handles[owner] = nil
        for item in moving {
            guard let handle = target.monitor.regions.handle(forID: item.region.id) else { continue }
            handles[owner, default: [:]][item.entry.regionID] = handle
        }
        groups[new] = target
    }

    /// Puts back every stored region at a start, each rule group's regions loaded and indexed once; call before
    /// anything is added. `read` hands the stored regions of the owners it is given, each feature as the store's
    /// own bytes with its entry, owner by owner.
    mutating func restore(owners: [ClientKey],
                          reading read: (_ owners: [ClientKey], _ each: (UnsafeRawBufferPointer, Entry) throws -> Void) throws -> Void) throws {
        var owned: [RegionMonitorConfiguration: [ClientKey]] = [:]
        for owner in owners { owned[rules(of: owner), default: []].append(owner) }
        for (rules, owners) in owned {
            var entries: [Entry] = []
            let loaded = try RegionLoader.load(name: "the store") { put in
                var prefix: [UInt8] = []
                // `read` never keeps the closure: it calls it once a row, before it returns.
                try withoutActuallyEscaping(put) { put in
                    try read(owners) { feature, entry in
                        if entries.last?.owner != entry.owner { prefix = Array(Self.sharedID(entry.owner, "").utf8) }
                        entries.append(entry)
                        try put(feature, prefix + entry.regionID.utf8)
                    }
                }
            }
            let group = try RegionGroup(rules: rules, restoring: loaded, entries)
            // Entries come owner by owner: each owner's ids go in as one dictionary.
            var run: [String: RegionHandle] = [:]
            var runOwner: ClientKey?
            for (handle, entry) in zip(loaded.handles, entries) {
                if entry.owner != runOwner {
                    if let runOwner { handles[runOwner, default: [:]].merge(run) { $1 } }
                    run = [:]
                    runOwner = entry.owner
                }
                run[entry.regionID] = handle
            }
            if let runOwner { handles[runOwner, default: [:]].merge(run) { $1 } }
            groups[rules] = group
        }
    }

    /// A region's id in the index its group shares with other clients.
    static func sharedID(_ owner: ClientKey, _ regionID: String) -> String { "\(owner.uid)\u{1F}\(owner.clientID)\u{1F}\(regionID)" }

    /// Adds a client's new regions, parsed and validated by `regions(fromFeatureCollection:)`, to the group of its
    /// rules in one step, each with its row in the store; each is undecided until a fix.
    mutating func add(validated regions: [Region], rows: [Int64], owner: ClientKey) throws {
        let rules = rules(of: owner)
        if groups[rules] == nil { groups[rules] = try RegionGroup(rules: rules) }
        let shared = regions.map { region in
            var shared = region
            shared.id = Self.sharedID(owner, region.id)
            return shared
        }
        let entries = zip(regions, rows).map { Entry(row: $1, owner: owner, regionID: $0.id, state: .unknown, since: nil) }
        let added = try groups[rules]!.add(validated: shared, entries)
        for (region, handle) in zip(regions, added) { handles[owner, default: [:]][region.id] = handle }
    }

    /// Removes a region; returns its entry and, when it was inside, the final `exit` with reason `regionRemoved`.
    mutating func remove(_ owner: ClientKey, _ regionID: String, at now: Timestamp) -> (Entry, RegionEvent?)? {
        let rules = rules(of: owner)
        guard let handle = handles[owner]?.removeValue(forKey: regionID), var group = groups.removeValue(forKey: rules) else {
            return nil
        }
        if handles[owner]?.isEmpty == true { handles[owner] = nil }
        let removed = group.remove(handle, at: now)
        if !group.isEmpty { groups[rules] = group }
        return removed
    }

    /// Removes every region of a client and forgets its rules, as `unregister` does.
    mutating func removeAll(of owner: ClientKey, at now: Timestamp) {
        for regionID in regionIDs(of: owner) { _ = remove(owner, regionID, at: now) }
        chosen[owner] = nil
    }

    /// One fix through every group: each client's events in contract order, with its own region ids.
    mutating func update(with fix: Fix, at now: Timestamp) -> [Change] {
        var changes: [Change] = []
        for index in Array(groups.indices) { changes += groups.values[index].update(with: fix, at: now) }
        return changes
    }

    /// Debounced changes and dwells that fell due by `now` without a fix (a source's timer).
    mutating func advance(to now: Timestamp) -> [Change] {
        var changes: [Change] = []
        for index in Array(groups.indices) { changes += groups.values[index].advance(to: now) }
        return changes
    }

    /// Parses GeoJSON features (a FeatureCollection's bytes) into regions with the contract's rules, in memory.
    static func regions(fromFeatureCollection bytes: [UInt8]) throws(RegionLoadError) -> [Region] {
        let store: RegionStore
        do {
            store = try bytes.withUnsafeBytes { try RegionLoader.load(bytes: $0, name: "request") }
        } catch let error as RegionLoadError {
            throw error
        } catch {
            throw RegionLoadError(file: "request", reason: "\(error)")
        }
        return store.handles.compactMap { store.region($0) }
    }
}
