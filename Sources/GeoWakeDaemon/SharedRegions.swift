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

    struct Entry: Equatable {
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
    /// Each owner's regions; an id is found in its group's index, under its shared id.
    private var owned: [ClientKey: OwnedRegions] = [:]
    private var chosen: [ClientKey: RegionRules] = [:]
    /// Counts the calls that added regions to a group, so the decisions can tell when additions stopped.
    private(set) var additions = 0

    init(defaults: RegionMonitorConfiguration = RegionMonitorConfiguration()) throws(ProtocolError) {
        _ = try defaults.validated()
        self.defaults = defaults
    }

    var isEmpty: Bool { owned.isEmpty }

    var owners: Dictionary<ClientKey, OwnedRegions>.Keys { owned.keys }

    func count(of owner: ClientKey) -> Int { owned[owner]?.count ?? 0 }

    func regionIDs(of owner: ClientKey) -> [String] {
        guard let regions = owned[owner], let group = groups.index(forKey: rules(of: owner)) else { return [] }
        let entries = groups.values[group].entries
        return regions.handles.compactMap { entries[$0]?.regionID }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// A client's region by its id. Its group is read in place (`values[index]`): a copy of a group retains and
    /// releases each of its index's arrays, several times the cost of the lookup itself.
    func entry(_ owner: ClientKey, _ regionID: String) -> Entry? {
        guard owned[owner] != nil, let group = groups.index(forKey: rules(of: owner)),
              let handle = groups.values[group].monitor.regions.handle(forID: Self.sharedID(owner, regionID)) else {
            return nil
        }
        return groups.values[group].entries[handle]
    }

    /// The rules a client's regions follow: its own choice over the daemon's defaults.
    func rules(of owner: ClientKey) -> RegionMonitorConfiguration { chosen[owner]?.resolved(over: defaults) ?? defaults }

    /// Whether a group's index has a rebuild that additions deferred (`RegionGroup.add`).
    var hasDeferredRebuild: Bool { groups.values.contains { $0.hasDeferredRebuild } }

    /// Does the rebuilds additions deferred; each group is rebuilt in place, not copied out of the dictionary.
    mutating func rebuildDeferredIndexes() {
        for index in groups.indices where groups.values[index].hasDeferredRebuild {
            groups.values[index].rebuildIndexIfDeferred()
        }
    }

    /// The earliest instant a debounced change or a dwell falls due in any group.
    /// The loop asks every turn: the groups are read in place, not copied out of the dictionary one by one.
    var nextDeadline: Timestamp? {
        var earliest: Timestamp?
        for index in groups.indices {
            if let due = groups.values[index].monitor.nextDeadline, earliest.map({ due < $0 }) ?? true { earliest = due }
        }
        return earliest
    }

    /// Sets a client's rules; its regions move to the group of the new rules keeping their states (a pending
    /// debounced change is dropped: the new rules decide it afresh at the next fix). No event is produced.
    mutating func choose(_ choice: RegionRules, for owner: ClientKey, at now: Timestamp) throws {
        let old = rules(of: owner)
        chosen[owner] = choice == RegionRules() ? nil : choice
        let new = rules(of: owner)
        // Groups are taken out of the dictionary while they change, so that no copy of an index is made.
        guard new != old, let regions = owned[owner], var source = groups.removeValue(forKey: old) else { return }
        let moving = source.take(regions.handles.filter { source.entries[$0] != nil }, at: now)
        let lastFix = source.monitor.lastFix
        if !source.isEmpty { groups[old] = source }
        var target = try groups.removeValue(forKey: new) ?? RegionGroup(rules: new)
        try target.put(moving, lastFix: lastFix)
        additions += 1
        let handles = moving.compactMap { target.monitor.regions.handle(forID: $0.region.id) }
        owned[owner] = handles.isEmpty ? nil : OwnedRegions(handles: handles, count: handles.count)
        groups[new] = target
    }

    /// Puts back every stored region at a start, each rule group's regions loaded and indexed once; call before
    /// anything is added. `read` hands the stored regions of the owners it is given, each feature as the store's
    /// own bytes with its entry, owner by owner, and returns their states.
    mutating func restore(owners: [ClientKey],
                          reading read: (_ owners: [ClientKey], _ each: (UnsafeRawBufferPointer, Entry) throws -> Void) throws -> StoredRegionStates) throws {
        var byRules: [RegionMonitorConfiguration: [ClientKey]] = [:]
        for owner in owners { byRules[rules(of: owner), default: []].append(owner) }
        for (rules, owners) in byRules {
            var entries: [Entry] = []
            var states = StoredRegionStates()
            let loaded = try RegionLoader.load(name: "the store") { put in
                var prefix: [UInt8] = []
                // `read` never keeps the closure: it calls it once a row, before it returns.
                try withoutActuallyEscaping(put) { put in
                    states = try read(owners) { feature, entry in
                        if entries.last?.owner != entry.owner { prefix = Array(Self.sharedID(entry.owner, "").utf8) }
                        entries.append(entry)
                        try put(feature, prefix + entry.regionID.utf8)
                    }
                }
            }
            states.restore(&entries)
            let group = try RegionGroup(rules: rules, restoring: loaded, entries)
            // Entries come owner by owner: each owner's handles go in as one run.
            var start = 0
            let handles = Array(loaded.handles)
            while start < entries.count {
                let owner = entries[start].owner
                var end = start + 1
                while end < entries.count && entries[end].owner == owner { end += 1 }
                owned[owner, default: OwnedRegions()].append(handles[start..<end])
                start = end
            }
            groups[rules] = group
        }
    }

    /// A region's id in the index its group shares with other clients.
    static func sharedID(_ owner: ClientKey, _ regionID: String) -> String { "\(owner.uid)\u{1F}\(owner.clientID)\u{1F}\(regionID)" }

    /// Adds a client's new regions, drafts `RegionLoader.validatedDrafts` read under the client's own region ids, to
    /// the group of its rules in one step, each with its row in the store; each is undecided until a fix.
    mutating func add(validated drafts: [FeatureDraft], rows: [Int64], owner: ClientKey) throws {
        let rules = rules(of: owner)
        if groups[rules] == nil { groups[rules] = try RegionGroup(rules: rules) }
        let prefix = Array(Self.sharedID(owner, "").utf8)
        var entries: [Entry] = []
        entries.reserveCapacity(drafts.count)
        var shared = drafts
        for index in shared.indices {
            entries.append(Entry(row: rows[index], owner: owner, regionID: String(decoding: shared[index].id, as: UTF8.self),
                                 state: .unknown, since: nil))
            shared[index].id.insert(contentsOf: prefix, at: 0)
        }
        let added = try groups[rules]!.add(validated: shared, entries)
        additions += 1
        owned[owner, default: OwnedRegions()].append(added[...])
    }

    /// The same for region values (made by `regions(fromFeatureCollection:)`).
    mutating func add(validated regions: [Region], rows: [Int64], owner: ClientKey) throws {
        try add(validated: regions.map(FeatureDraft.init), rows: rows, owner: owner)
    }

    /// What `remove` would return now, with nothing removed: `stopMonitoring` writes it and removes once it is stored.
    func removal(_ owner: ClientKey, _ regionID: String, at now: Timestamp) -> (Entry, RegionEvent?)? {
        guard let group = groups[rules(of: owner)],
              let handle = group.monitor.regions.handle(forID: Self.sharedID(owner, regionID)) else { return nil }
        return group.removal(handle, at: now)
    }

    /// Removes a region; returns its entry and, when it was inside, the final `exit` with reason `regionRemoved`.
    mutating func remove(_ owner: ClientKey, _ regionID: String, at now: Timestamp) -> (Entry, RegionEvent?)? {
        let rules = rules(of: owner)
        guard let handle = groups[rules]?.monitor.regions.handle(forID: Self.sharedID(owner, regionID)),
              var group = groups.removeValue(forKey: rules) else {
            return nil
        }
        let removed = group.remove(handle, at: now)
        owned[owner]?.removed { group.entries[$0] != nil }
        if owned[owner]?.count == 0 { owned[owner] = nil }
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
        for index in Array(groups.indices) { Self.append(groups.values[index].update(with: fix, at: now), to: &changes) }
        return changes
    }

    /// Debounced changes and dwells that fell due by `now` without a fix (a source's timer).
    mutating func advance(to now: Timestamp) -> [Change] {
        var changes: [Change] = []
        for index in Array(groups.indices) { Self.append(groups.values[index].advance(to: now), to: &changes) }
        return changes
    }

    /// A group's changes after the others': taken whole into an empty list (one group, the usual case), not copied
    /// change by change (after a `monitor`, a fix decides its thousand regions, each change with two strings).
    private static func append(_ group: [Change], to changes: inout [Change]) {
        if changes.isEmpty { changes = group } else { changes += group }
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

/// One owner's regions: their handles in its group's index, in the order added, and how many are live. A removed
/// region's handle stays in the list until the list is mostly such handles.
struct OwnedRegions {
    private(set) var handles: [RegionHandle] = []
    private(set) var count = 0

    fileprivate init(handles: [RegionHandle] = [], count: Int = 0) {
        (self.handles, self.count) = (handles, count)
    }

    fileprivate mutating func append(_ added: ArraySlice<RegionHandle>) {
        handles += added
        count += added.count
    }

    /// After one of them was removed; `isLive` tells the handles still in the group.
    fileprivate mutating func removed(keeping isLive: (RegionHandle) -> Bool) {
        count -= 1
        if handles.count > 2 * count + 64 { handles = handles.filter(isLive) }
    }
}
