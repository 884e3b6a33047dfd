import GeoWakeCore
import RegionIndex
import Regions

/// Regions that come and go while the monitor runs: the index changes in place and every other region keeps
/// its state, with nothing rebuilt from scratch.
extension RegionMonitor where Regions == RegionIndex {
    /// Validates and adds a region to the monitored index. Its state is unknown (`state(of:)` says `.unknown`)
    /// until the next fix decides it: inside reports `enter` as for any region, outside reports nothing.
    /// Handles are never reused within one index, so the new handle names no state left by a removed region.
    @discardableResult
    public mutating func add(_ region: Region) throws(InvalidRegion) -> RegionHandle {
        let handle = try regions.add(region)
        state.regionAdded(handle)
        return handle
    }

    /// Adds regions a `RegionLoader` validated already, the index settling once for all of them; each is undecided,
    /// as `add(_:)` says.
    package mutating func add(validated regions: [Region]) throws(InvalidRegion) -> [RegionHandle] {
        try add(validated: regions.map(FeatureDraft.init))
    }

    /// The same for drafts a loader validated (`RegionLoader.validatedDrafts`), with no `Region` made for them;
    /// `deferringRebuild` as `RegionIndex.add(validated:deferringRebuild:)` says.
    package mutating func add(validated drafts: [FeatureDraft], deferringRebuild: Bool = false) throws(InvalidRegion) -> [RegionHandle] {
        let handles = try self.regions.add(validated: drafts, deferringRebuild: deferringRebuild)
        for handle in handles { state.regionAdded(handle) }
        return handles
    }

    /// Rebuilds the index if additions deferred it (`RegionIndex.rebuildIfDeferred()`); no state changes.
    package mutating func rebuildIndexIfDeferred() {
        regions.rebuildIfDeferred()
    }

    /// Removes a region from the monitored index and forgets its state. If it was reported inside (and
    /// notifies on exit) a final `exit` with reason `.regionRemoved` is appended, at the last fix's position,
    /// stamped `now`. Unknown or already removed handles are ignored.
    public mutating func remove(_ handle: RegionHandle, at now: Timestamp, events: inout [RegionEvent]) {
        guard regions.region(handle) != nil else { return }
        if let exit = exitOnRemoval(of: handle, at: now) { events.append(exit) }
        _ = state.removeTrack(of: handle)
        regions.remove(handle)
    }

    /// The `exit` that removing the region now would append, if any, with nothing removed: the daemon writes it
    /// with the region's deletion and removes the region once the write committed.
    public func exitOnRemoval(of handle: RegionHandle, at now: Timestamp) -> RegionEvent? {
        guard let region = regions.region(handle), let track = state.track(of: handle), track.isInside, region.notifyOnExit,
              var fix = state.lastFix else { return nil }
        fix.time = now
        return RegionEvent(kind: .exit, regionID: region.id, fix: fix, reason: .regionRemoved)
    }
}
