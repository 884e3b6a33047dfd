import GeoWakeCore
import RegionIndex

/// What a region monitor reports, keyed by region id so that it outlives the process (handles do not): a
/// daemon saves it and restores it after a restart, even after SIGKILL, without repeating an `enter` for a
/// region already reported inside. Regions outside with nothing pending are not listed.
public struct RegionMonitorSnapshot: Codable, Sendable, Equatable {
    /// One region the monitor spends state on.
    public struct RegionRecord: Codable, Sendable, Equatable {
        public var id: String
        /// When `enter` was decided; nil while outside.
        public var insideSince: Timestamp?
        /// A change to the opposite state, waiting out the debounce until this instant.
        public var changeDue: Timestamp?
        /// When the `dwell` falls due; nil when none is pending (already reported, or the region has none).
        public var dwellDue: Timestamp?

        public init(id: String, insideSince: Timestamp?, changeDue: Timestamp? = nil, dwellDue: Timestamp? = nil) {
            self.id = id
            self.insideSince = insideSince
            self.changeDue = changeDue
            self.dwellDue = dwellDue
        }
    }

    /// The last fix accepted, field by field (`Fix` itself is not `Codable`).
    public struct LastFix: Codable, Sendable, Equatable {
        public var time: Timestamp?
        public var latitude: Double
        public var longitude: Double
        public var altitudeMSL: Double?
        public var speed: Double?
        public var course: Double?
        public var horizontalAccuracy: Double?
        public var mode: Int
        public var satellites: Int?

        public init(_ fix: Fix) {
            time = fix.time
            latitude = fix.coordinate.latitude
            longitude = fix.coordinate.longitude
            altitudeMSL = fix.altitudeMSL
            speed = fix.speed
            course = fix.course
            horizontalAccuracy = fix.horizontalAccuracy
            mode = fix.mode.rawValue
            satellites = fix.satellites
        }

        public var fix: Fix {
            Fix(time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude), altitudeMSL: altitudeMSL,
                speed: speed, course: course, horizontalAccuracy: horizontalAccuracy,
                mode: Fix.Mode(rawValue: mode) ?? .twoD, satellites: satellites)
        }
    }

    /// Sorted by the byte order of the id.
    public var regions: [RegionRecord]
    public var lastFix: LastFix?

    public init(regions: [RegionRecord], lastFix: LastFix?) {
        self.regions = regions
        self.lastFix = lastFix
    }
}

/// A region's reported state, cheap to ask for after each event.
public enum RegionState: Hashable, Sendable {
    case inside(since: Timestamp)
    case outside
    /// No fix has decided it yet: none accepted at all, or none since the region was added.
    case unknown
}

extension RegionMonitor where Regions == RegionIndex {
    /// Everything the monitor reports, by region id, plus the last fix.
    public func snapshot() -> RegionMonitorSnapshot {
        let records = state.tracks.map { track in
            RegionMonitorSnapshot.RegionRecord(id: regions.store.id(track.handle), insideSince: track.insideSince,
                                               changeDue: track.changeDue, dwellDue: track.dwellDue)
        }
        return RegionMonitorSnapshot(regions: records.sorted { String.compareUTF8($0.id, $1.id) < 0 },
                                     lastFix: state.lastFix.map(RegionMonitorSnapshot.LastFix.init))
    }

    /// What `snapshot()` holds, without building it: each active region's handle and instants, in handle order
    /// (not id order), for a caller that writes many monitors' state often — a fleet worker's checkpoints, where
    /// making a string per region and sorting them was most of a checkpoint's cost. `lastFix` is the rest.
    public func forEachActiveRegion(_ body: (_ region: RegionHandle, _ insideSince: Timestamp?, _ changeDue: Timestamp?,
                                             _ dwellDue: Timestamp?) throws -> Void) rethrows {
        for track in state.tracks { try body(track.handle, track.insideSince, track.changeDue, track.dwellDue) }
    }

    /// Replaces the monitor's state with a snapshot's; ids not in the index are ignored. The later fixes then
    /// give the events the snapshotted monitor would have given.
    public mutating func restore(_ snapshot: RegionMonitorSnapshot) {
        let tracks = snapshot.regions.compactMap { record -> RegionTrack? in
            guard let handle = regions.handle(forID: record.id) else { return nil }
            return RegionTrack(handle: handle, insideSince: record.insideSince, changeDue: record.changeDue,
                               dwellDue: record.dwellDue)
        }
        state.reset(tracks: tracks, lastFix: snapshot.lastFix?.fix)
    }

    /// Marks regions as reported inside since the given instants, without events: the cheap restore for a
    /// caller that persisted `state(of:)` per event. Other regions keep their state; handles not in the index
    /// are ignored. A restored region has no pending change, and its dwell (if any) falls due `dwell` seconds
    /// after `since` unless `dwellReported` says it was sent already, or it is not after the last fix (then it
    /// is taken as already reported).
    public mutating func restore(inside: [(RegionHandle, since: Timestamp)], dwellReported: Bool = false) {
        for (handle, since) in inside {
            guard regions.store.owns(handle), regions.store.kind(handle) != .removed else { continue }
            var dwellDue = dwellReported ? nil : regions.attributes(of: handle).dwell.map { since + $0 }
            if let due = dwellDue, let last = state.lastFix?.time, due <= last { dwellDue = nil }
            state.setTrack(RegionTrack(handle: handle, insideSince: since, dwellDue: dwellDue))
        }
    }
}

extension RegionMonitor {
    /// The state the monitor reports for one region.
    public func state(of region: RegionHandle) -> RegionState {
        if let since = state.track(of: region)?.insideSince { return .inside(since: since) }
        return state.isUndecided(region) ? .unknown : .outside
    }
}
