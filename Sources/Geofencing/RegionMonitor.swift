/// The region-monitoring service as a pure state machine: `(state, fix, now) -> (state, events)`, with no I/O
/// and no clock of its own, so that `geowake replay` and the daemon run exactly this code.
///
/// Every region starts unknown. Unknown and outside behave alike (entering either reports `enter`, deciding
/// outside reports nothing), so the monitor keeps state only for regions reported inside or with a change
/// waiting out the debounce. A fix costs one `forEachRegion(containing:)` query plus one look at each of those
/// active regions; regions registered far away cost nothing.
///
/// Time is the `now` given with each step. A fix given with a `now` earlier than the previous fix's is ignored,
/// as is a fix whose coordinate is not valid.
/// A gap between fixes is not an exit: state only changes on a decisive fix, or when a pending change or a
/// dwell falls due. `advance(to:)` lets a live caller fire those on time without waiting for the next fix;
/// `update` fires whatever fell due before its `now` first, so replaying fixes alone gives the same events.
public struct RegionMonitor<Regions: RegionQuerying> {
    public let regions: Regions
    public let configuration: RegionMonitorConfiguration

    private var tracks: [RegionHandle: RegionTrack] = [:]
    /// The latest accepted fix, its time set to the `now` it came with.
    private var lastFix: Fix?
    /// Tells, per fix, which tracked regions the containment query reported.
    private var generation: UInt64 = 0
    /// Reused across fixes so that the steady state allocates nothing.
    private var released: [RegionHandle] = []
    private var crossings: [RegionHandle] = []

    public init(regions: Regions, configuration: RegionMonitorConfiguration = RegionMonitorConfiguration()) {
        self.regions = regions
        self.configuration = configuration
    }

    /// The reported state: true once `enter` was decided (whether or not it was notified), until `exit`.
    public func isInside(_ region: RegionHandle) -> Bool {
        tracks[region]?.isInside ?? false
    }

    /// Regions reported inside or with a pending change: the only regions the monitor spends memory on.
    public var activeRegionCount: Int { tracks.count }

    /// The earliest instant at which a pending change or a dwell falls due; a live caller sets its timer to it.
    public var nextDeadline: Timestamp? {
        tracks.values.lazy.compactMap(\.nextDue).min()
    }

    /// Feeds one fix observed at `now`, appending the events it causes in the contract's order.
    public mutating func update(with fix: Fix, at now: Timestamp, events: inout [RegionEvent]) {
        // A position that is not on the globe would measure as far outside everything: it decides nothing.
        guard fix.coordinate.isValid else { return }
        if let last = lastFix?.time, now < last { return }
        let firstNew = events.count
        var current = fix
        current.time = now
        let previous = lastFix
        let accuracy = configuration.accuracyGating ? Self.usableAccuracy(fix.horizontalAccuracy) : 0
        let regions = self.regions

        generation &+= 1
        let thisFix = generation
        regions.forEachRegion(containing: fix.coordinate) { handle in
            tracks[handle, default: RegionTrack()].containedGeneration = thisFix
        }

        released.removeAll(keepingCapacity: true)
        var index = tracks.startIndex
        while index != tracks.endIndex {
            let handle = tracks.keys[index]
            var track = tracks.values[index]
            if let previous {
                fireDue(&track, handle, before: now, inclusive: false, position: previous, events: &events)
            }
            observe(&track, handle, at: fix.coordinate, now: now, accuracy: accuracy,
                    contained: track.containedGeneration == thisFix)
            fireDue(&track, handle, before: now, inclusive: true, position: current, events: &events)
            tracks.values[index] = track
            if !track.isInside && track.changeDue == nil { released.append(handle) }
            tracks.formIndex(after: &index)
        }
        for handle in released { tracks[handle] = nil }

        if configuration.segmentCrossing, let previous {
            reportCrossings(from: previous, to: current, events: &events)
        }
        lastFix = current
        events[firstNew...].sort(by: RegionEvent.monitorOrder)
    }

    /// Convenience for callers that do not reuse an event buffer.
    public mutating func update(with fix: Fix, at now: Timestamp) -> [RegionEvent] {
        var events: [RegionEvent] = []
        update(with: fix, at: now, events: &events)
        return events
    }

    /// Fires the pending changes and dwells due at or before `now`, without a new fix. Their events carry the
    /// last fix's position, stamped with the instant each fell due.
    public mutating func advance(to now: Timestamp, events: inout [RegionEvent]) {
        guard let position = lastFix else { return }
        let firstNew = events.count
        released.removeAll(keepingCapacity: true)
        var index = tracks.startIndex
        while index != tracks.endIndex {
            let handle = tracks.keys[index]
            var track = tracks.values[index]
            fireDue(&track, handle, before: now, inclusive: true, position: position, events: &events)
            tracks.values[index] = track
            if !track.isInside && track.changeDue == nil { released.append(handle) }
            tracks.formIndex(after: &index)
        }
        for handle in released { tracks[handle] = nil }
        events[firstNew...].sort(by: RegionEvent.monitorOrder)
    }

    /// What one fix says about one region: decisively inside, decisively outside, or nothing.
    private func observe(_ track: inout RegionTrack, _ handle: RegionHandle, at point: Coordinate, now: Timestamp,
                         accuracy: Double, contained: Bool) {
        let inside: Bool
        if contained {
            guard accuracy == 0 || regions.signedDistance(from: point, to: handle) <= -accuracy else { return }
            inside = true
        } else {
            let margin = accuracy + (track.isInside ? configuration.hysteresis : 0)
            guard margin == 0 || regions.signedDistance(from: point, to: handle) > margin else { return }
            inside = false
        }
        if inside == track.isInside {
            track.changeDue = nil
        } else if track.changeDue == nil {
            track.changeDue = now + configuration.debounce
        }
    }

    /// Reports, in time order, the track's pending change and dwell that fall due before `limit`.
    private func fireDue(_ track: inout RegionTrack, _ handle: RegionHandle, before limit: Timestamp, inclusive: Bool,
                         position: Fix, events: inout [RegionEvent]) {
        while let due = track.nextDue, inclusive ? due <= limit : due < limit {
            var fix = position
            fix.time = due
            let attributes = regions.attributes(of: handle)
            // A change wins a tie with a dwell: an exit at the very instant the dwell was due cancels it.
            if track.changeDue == due {
                track.changeDue = nil
                track.isInside.toggle()
                if track.isInside {
                    track.dwellDue = attributes.dwell.map { due + $0 }
                    if attributes.notifyOnEntry { events.append(RegionEvent(kind: .enter, regionID: attributes.id, fix: fix)) }
                } else {
                    track.dwellDue = nil
                    if attributes.notifyOnExit { events.append(RegionEvent(kind: .exit, regionID: attributes.id, fix: fix)) }
                }
            } else {
                track.dwellDue = nil
                events.append(RegionEvent(kind: .dwell, regionID: attributes.id, fix: fix))
            }
        }
    }

    /// Regions the straight segment between two fixes passes through while neither fix lies in them: the
    /// device went in and out between the fixes, which sparse fixes or a fast vehicle would otherwise hide.
    private mutating func reportCrossings(from previous: Fix, to current: Fix, events: inout [RegionEvent]) {
        let regions = self.regions
        crossings.removeAll(keepingCapacity: true)
        regions.forEachRegion(crossedBy: previous.coordinate, current.coordinate) { crossings.append($0) }
        for handle in crossings where tracks[handle] == nil
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

    /// A missing, negative or non-finite estimate gates nothing: the fix is taken as exact.
    private static func usableAccuracy(_ horizontalAccuracy: Double?) -> Double {
        guard let accuracy = horizontalAccuracy, accuracy.isFinite, accuracy > 0 else { return 0 }
        return accuracy
    }
}

/// What the monitor remembers about one active region.
struct RegionTrack {
    /// The reported state; a track that is outside with nothing pending is dropped.
    var isInside = false
    /// A change to the opposite state, reported at this instant unless a decisive fix contradicts it first.
    var changeDue: Timestamp?
    var dwellDue: Timestamp?
    var containedGeneration: UInt64 = 0

    var nextDue: Timestamp? {
        guard let change = changeDue else { return dwellDue }
        guard let dwell = dwellDue else { return change }
        return min(change, dwell)
    }
}
