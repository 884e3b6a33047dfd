import GeoWakeCore
import RegionIndex

/// What the region monitor remembers between fixes, and how a fix changes it. The index and the
/// configuration are arguments, so that the index is borrowed by every call into it instead of copied.
struct RegionMonitorState {
    /// The active regions, sorted by handle so that a fix's sorted hits merge with them in one pass, with no
    /// hashing; merged into `buffers.mergeRoom` on each fix and copied back.
    private(set) var tracks: [RegionTrack] = []
    /// The latest accepted fix, its time set to the `now` it came with.
    private(set) var lastFix: Fix?
    private var neighbourhood = RegionMonitorNeighbourhood()
    /// Reused across fixes so that the steady state allocates nothing; lent by the caller or kept.
    var buffers = RegionMonitorBuffers()
    /// Regions added since the last fix, which has therefore not decided them.
    private var undecided: [RegionHandle] = []
    /// Recent boundary measurements, which spare most repeated ones near a boundary. Internal for tests.
    var boundaries = MeasuredBoundaries()

    /// Feeds one fix observed at `now`, appending the events it causes in the contract's order.
    mutating func update(with fix: Fix, at now: Timestamp, regions: some RegionQuerying,
                         configuration: RegionMonitorConfiguration, events: inout [RegionEvent]) {
        // A position that is not on the globe would measure as far outside everything: it decides nothing.
        guard fix.coordinate.isValid else { return }
        if let last = lastFix?.time, now < last { return }
        let firstNew = events.count
        var current = fix
        current.time = now
        let previous = lastFix
        let accuracy = configuration.accuracyGating ? Self.usableAccuracy(fix.horizontalAccuracy) : 0

        // Buffers are moved out while they are filled, so that neither they nor the index are copied.
        var hits: [RegionHandle] = []
        swap(&hits, &buffers.containing)
        hits.removeAll(keepingCapacity: true)
        neighbourhood.appendRegions(containing: fix.coordinate, in: regions, to: &hits, scratch: &buffers.pointQuery,
                                    room: &buffers.neighbourhoodRoom)
        RegionHandle.sort(&hits)
        // The usual fix lies in exactly the regions reported inside, with nothing pending: it changes nothing.
        if !Self.onlyConfirms(tracks, hits) {
            merge(hits, at: fix.coordinate, now: now, accuracy: accuracy, current: current, previous: previous,
                  regions: regions, configuration: configuration, events: &events)
        }
        swap(&hits, &buffers.containing)

        if configuration.segmentCrossing, let previous {
            reportCrossings(from: previous, to: current, regions: regions, events: &events)
        }
        lastFix = current
        if !undecided.isEmpty { undecided.removeAll() }
        if events.count - firstNew > 1 { RegionEvent.sortInMonitorOrder(&events, from: firstNew) }
    }

    /// Takes each active region and each region containing the fix through the fix: what fell due before it,
    /// what it decides, what falls due with it.
    private mutating func merge(_ hits: [RegionHandle], at point: Coordinate, now: Timestamp, accuracy: Double,
                                current: Fix, previous: Fix?, regions: some RegionQuerying,
                                configuration: RegionMonitorConfiguration, events: inout [RegionEvent]) {
        var old: [RegionTrack] = []
        swap(&old, &tracks)
        let most = old.count + hits.count
        guard most > 0 else { return }
        // Merged in place into `buffers.mergeRoom`, room made first (only when it grows), and copied back at once:
        // appended one by one, each track paid a uniqueness and a capacity check, and read from the arrays, a
        // bounds check (the merge's own loop was a tenth of `geowake bench replay`'s profile).
        var kept: [RegionTrack] = []
        swap(&kept, &buffers.mergeRoom)
        if kept.count < most {
            kept.append(contentsOf: repeatElement(RegionTrack(handle: hits.first ?? old[0].handle), count: most - kept.count))
        }
        let count = old.withUnsafeBufferPointer { tracks in
            hits.withUnsafeBufferPointer { hits in
                kept.withUnsafeMutableBufferPointer { out in
                    var t = 0, h = 0, k = 0
                    while t < tracks.count || h < hits.count {
                        // Most of a fix's regions: settled inside and containing it, which the fix confirms.
                        // Found by a look at each handle and copied as one run.
                        var run = 0
                        while t + run < tracks.count, h + run < hits.count, tracks[t + run].handle == hits[h + run],
                              tracks[t + run].isSettledInside {
                            run += 1
                        }
                        if run > 0 {
                            (out.baseAddress! + k).update(from: tracks.baseAddress! + t, count: run)
                            t += run
                            h += run
                            k += run
                            continue
                        }
                        var track: RegionTrack
                        let contained: Bool
                        if h == hits.count || t < tracks.count && tracks[t].handle < hits[h] {
                            track = tracks[t]
                            contained = false
                            t += 1
                        } else if t == tracks.count || hits[h] < tracks[t].handle {
                            track = RegionTrack(handle: hits[h])
                            contained = true
                            h += 1
                        } else {
                            track = tracks[t]
                            contained = true
                            t += 1
                            h += 1
                        }
                        // Checked here, not inside `fireDue`, because most tracks have nothing due and a fix is large to pass.
                        if let due = track.nextDue, due < now, let previous {
                            fireDue(&track, before: now, inclusive: false, position: previous, regions: regions, events: &events)
                        }
                        observe(&track, at: point, now: now, accuracy: accuracy, contained: contained, regions: regions,
                                configuration: configuration)
                        if let due = track.nextDue, due <= now {
                            fireDue(&track, before: now, inclusive: true, position: current, regions: regions, events: &events)
                        }
                        if track.isActive {
                            out[k] = track
                            k += 1
                        }
                    }
                    return k
                }
            }
        }
        old.removeAll(keepingCapacity: true)
        old.append(contentsOf: kept[0..<count])
        swap(&old, &tracks)
        swap(&kept, &buffers.mergeRoom)
    }

    /// Fires the pending changes and dwells due at or before `now`, without a new fix. Their events carry the
    /// last fix's position, stamped with the instant each fell due.
    mutating func advance(to now: Timestamp, regions: some RegionQuerying, events: inout [RegionEvent]) {
        guard let position = lastFix else { return }
        let firstNew = events.count
        var kept = 0
        for t in tracks.indices {
            var track = tracks[t]
            fireDue(&track, before: now, inclusive: true, position: position, regions: regions, events: &events)
            if track.isActive {
                tracks[kept] = track
                kept += 1
            }
        }
        tracks.removeLast(tracks.count - kept)
        if events.count - firstNew > 1 { RegionEvent.sortInMonitorOrder(&events, from: firstNew) }
    }

    func track(of region: RegionHandle) -> RegionTrack? {
        let low = trackPosition(of: region)
        return low < tracks.count && tracks[low].handle == region ? tracks[low] : nil
    }

    /// Where the track of `region` is, or would go to keep `tracks` sorted by handle.
    private func trackPosition(of region: RegionHandle) -> Int {
        tracks.position(of: region) { $0.handle }
    }

    /// Drops the buffers kept from one fix to the next, which hold nothing between fixes (nor do the recent
    /// measurements, which only spare work); the next fix allocates them again.
    mutating func releaseBuffers() {
        buffers = RegionMonitorBuffers()
        boundaries.removeAll()
    }

    /// Forgets a region's track and returns it; the neighbourhood is dropped since its candidates may name it.
    mutating func removeTrack(of region: RegionHandle) -> RegionTrack? {
        neighbourhood = RegionMonitorNeighbourhood()
        let position = trackPosition(of: region)
        guard position < tracks.count, tracks[position].handle == region else { return nil }
        return tracks.remove(at: position)
    }

    /// A region added to the index: undecided until the next fix, and unknown to the cached neighbourhood.
    mutating func regionAdded(_ region: RegionHandle) {
        undecided.append(region)
        neighbourhood = RegionMonitorNeighbourhood()
    }

    /// Whether no fix has decided the region yet: none accepted at all, or none since it was added.
    func isUndecided(_ region: RegionHandle) -> Bool {
        lastFix == nil || undecided.contains(region)
    }

    /// Puts a track in place of whatever the monitor had for its region (nothing for an inactive track).
    mutating func setTrack(_ track: RegionTrack) {
        let position = trackPosition(of: track.handle)
        let exists = position < tracks.count && tracks[position].handle == track.handle
        switch (exists, track.isActive) {
        case (true, true): tracks[position] = track
        case (true, false): tracks.remove(at: position)
        case (false, true): tracks.insert(track, at: position)
        case (false, false): break
        }
    }

    /// Replaces every track and the last fix, as a restore does.
    mutating func reset(tracks newTracks: [RegionTrack], lastFix fix: Fix?) {
        tracks = newTracks.filter(\.isActive).sorted { $0.handle < $1.handle }
        lastFix = fix
        undecided.removeAll()
        neighbourhood = RegionMonitorNeighbourhood()
        boundaries.removeAll()
    }

    /// What one fix says about one region: decisively inside, decisively outside, or nothing.
    private mutating func observe(_ track: inout RegionTrack, at point: Coordinate, now: Timestamp, accuracy: Double,
                                  contained: Bool, regions: some RegionQuerying, configuration: RegionMonitorConfiguration) {
        // Geometry that agrees with where the region is heading (its state, or the pending change) can only
        // confirm it, decisively or not: that changes nothing, so the boundary need not be measured. This
        // keeps a fix well inside its regions free of distance computations.
        let heading = track.changeDue == nil ? track.isInside : !track.isInside
        guard contained != heading else { return }
        // Inside decisively when -distance <= -accuracy; outside when distance > margin. A device that
        // lingers near a boundary asks this on every fix, and a first fix for every region it lies in:
        // `boundaries` answers from a recent measurement, or the neighbourhood's from its centre, when the
        // device has moved too little since for the answer to change.
        let handle = track.handle
        if contained {
            guard accuracy == 0 || boundaries.exceeds(accuracy, strictly: false, region: handle, at: point,
                                                      earlier: neighbourhood.measurement(of: handle), measure: {
                -regions.signedDistance(from: point, to: handle, inside: true)
            }) else { return }
        } else {
            let margin = accuracy + (track.isInside ? configuration.hysteresis : 0)
            guard margin == 0 || boundaries.exceeds(margin, strictly: true, region: handle, at: point,
                                                    earlier: neighbourhood.measurement(of: handle), measure: {
                regions.signedDistance(from: point, to: handle, inside: false)
            }) else { return }
        }
        track.changeDue = track.changeDue == nil ? now + configuration.debounce : nil
    }

    /// Reports, in time order, the track's pending change and dwell that fall due before `limit`.
    private func fireDue(_ track: inout RegionTrack, before limit: Timestamp, inclusive: Bool, position: Fix,
                         regions: some RegionQuerying, events: inout [RegionEvent]) {
        while let due = track.nextDue, inclusive ? due <= limit : due < limit {
            var fix = position
            fix.time = due
            let attributes = regions.attributes(of: track.handle)
            // A change wins a tie with a dwell: an exit at the very instant the dwell was due cancels it.
            if track.changeDue == due {
                track.changeDue = nil
                track.insideSince = track.isInside ? nil : due
                track.dwellDue = track.isInside ? attributes.dwell.map { due + $0 } : nil
                if track.isInside ? attributes.notifyOnEntry : attributes.notifyOnExit {
                    events.append(RegionEvent(kind: track.isInside ? .enter : .exit, regionID: attributes.id, fix: fix))
                }
            } else {
                track.dwellDue = nil
                events.append(RegionEvent(kind: .dwell, regionID: attributes.id, fix: fix))
            }
        }
    }

    /// Regions the straight segment between two fixes passes through while neither fix lies in them: the
    /// device went in and out between the fixes, which sparse fixes or a fast vehicle would otherwise hide.
    private mutating func reportCrossings(from previous: Fix, to current: Fix, regions: some RegionQuerying,
                                          events: inout [RegionEvent]) {
        var crossed: [RegionHandle] = []
        swap(&crossed, &buffers.crossings)
        defer { swap(&crossed, &buffers.crossings) }
        crossed.removeAll(keepingCapacity: true)
        regions.forEachRegion(crossedBy: previous.coordinate, current.coordinate) { crossed.append($0) }
        for handle in crossed where track(of: handle) == nil
            && !regions.contains(handle, previous.coordinate) && !regions.contains(handle, current.coordinate) {
            let attributes = regions.attributes(of: handle)
            if attributes.notifyOnEntry {
                events.append(RegionEvent(kind: .enter, regionID: attributes.id, fix: current, crossed: true))
            }
            if attributes.notifyOnExit {
                events.append(RegionEvent(kind: .exit, regionID: attributes.id, fix: current, crossed: true))
            }
        }
    }

    /// Whether a fix contained in exactly `hits` leaves every track as it is: each is inside, with no change or
    /// dwell pending, and the fix lies in it and in no other region. `observe` then has nothing to decide.
    private static func onlyConfirms(_ tracks: [RegionTrack], _ hits: [RegionHandle]) -> Bool {
        guard tracks.count == hits.count else { return false }
        for i in tracks.indices {
            let track = tracks[i]
            guard track.handle == hits[i], track.isSettledInside else { return false }
        }
        return true
    }

    /// A missing, negative or non-finite estimate gates nothing: the fix is taken as exact.
    private static func usableAccuracy(_ horizontalAccuracy: Double?) -> Double {
        guard let accuracy = horizontalAccuracy, accuracy.isFinite, accuracy > 0 else { return 0 }
        return accuracy
    }
}
