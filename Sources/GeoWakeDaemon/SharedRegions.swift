import Foundation
import GeoWakeCore
import RegionIndex
import Regions

/// Every client's regions in one `RegionIndex`, each with its owner and monitoring state, so a fix costs one
/// index query however many clients there are. Exact semantics (no hysteresis or debounce), as `replay --exact`.
struct SharedRegions {
    enum State: String {
        case inside, outside, unknown
    }

    struct Entry {
        var owner: ClientKey
        var regionID: String
        var notifyOnEntry: Bool
        var notifyOnExit: Bool
        var state: State
        var since: Timestamp?
    }

    private(set) var index = RegionIndex()
    private(set) var entries: [RegionHandle: Entry] = [:]
    private var handles: [ClientKey: [String: RegionHandle]] = [:]
    private var undecided: Set<RegionHandle> = []
    private var inside: Set<RegionHandle> = []

    func count(of owner: ClientKey) -> Int { handles[owner]?.count ?? 0 }

    func handle(_ owner: ClientKey, _ regionID: String) -> RegionHandle? { handles[owner]?[regionID] }

    func regionIDs(of owner: ClientKey) -> [String] { (handles[owner] ?? [:]).keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    mutating func add(_ region: Region, owner: ClientKey, state: State, since: Timestamp?) throws {
        var shared = region
        shared.id = "\(owner.uid)\u{1F}\(owner.clientID)\u{1F}\(region.id)"
        let handle = try index.add(shared)
        entries[handle] = Entry(owner: owner, regionID: region.id, notifyOnEntry: region.notifyOnEntry,
                                notifyOnExit: region.notifyOnExit, state: state, since: since)
        handles[owner, default: [:]][region.id] = handle
        switch state {
        case .unknown: undecided.insert(handle)
        case .inside: inside.insert(handle)
        case .outside: break
        }
    }

    /// Removes a region; returns its entry so the caller can emit the final `exit` when it was inside.
    mutating func remove(_ owner: ClientKey, _ regionID: String) -> Entry? {
        guard let handle = handles[owner]?.removeValue(forKey: regionID) else { return nil }
        if handles[owner]?.isEmpty == true { handles[owner] = nil }
        index.remove(handle)
        undecided.remove(handle)
        inside.remove(handle)
        return entries.removeValue(forKey: handle)
    }

    mutating func removeAll(of owner: ClientKey) {
        for regionID in regionIDs(of: owner) { _ = remove(owner, regionID) }
    }

    /// A change decided by one fix, in contract order (exit before enter, then region id).
    struct Change {
        var handle: RegionHandle
        var entry: Entry
        var event: RegionEvent.Kind?
    }

    mutating func update(with fix: Fix) -> [Change] {
        var now: Set<RegionHandle> = []
        index.forEachRegion(containing: fix.coordinate) { now.insert($0) }
        var changes: [Change] = []
        for handle in inside where !now.contains(handle) {
            changes.append(decide(handle, .outside, fix, event: .exit))
        }
        for handle in now where !inside.contains(handle) {
            changes.append(decide(handle, .inside, fix, event: .enter))
        }
        for handle in undecided where !now.contains(handle) {
            changes.append(decide(handle, .outside, fix, event: nil))
        }
        undecided.removeAll()
        inside = now
        return changes.sorted { a, b in
            let ka = a.event?.rawValue ?? -1, kb = b.event?.rawValue ?? -1
            if ka != kb { return ka < kb }
            return a.entry.regionID.utf8.lexicographicallyPrecedes(b.entry.regionID.utf8)
        }
    }

    private mutating func decide(_ handle: RegionHandle, _ state: State, _ fix: Fix, event: RegionEvent.Kind?) -> Change {
        var entry = entries[handle]!
        entry.state = state
        entry.since = fix.time
        entries[handle] = entry
        var kind = event
        if kind == .enter && !entry.notifyOnEntry { kind = nil }
        if kind == .exit && !entry.notifyOnExit { kind = nil }
        return Change(handle: handle, entry: entry, event: kind)
    }

    /// Parses GeoJSON features (a FeatureCollection's bytes) into regions with the contract's rules.
    static func regions(fromFeatureCollection bytes: Data, scratchDirectory: String) throws(RegionLoadError) -> [Region] {
        let path = scratchDirectory + "/features-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).geojson"
        guard FileManager.default.createFile(atPath: path, contents: bytes) else {
            throw RegionLoadError(file: path, reason: "cannot write scratch file")
        }
        defer { unlink(path) }
        let store = try RegionLoader.load(path)
        return (0..<store.slotCount).compactMap { store.region(RegionHandle(rawValue: UInt32($0))) }
    }
}
