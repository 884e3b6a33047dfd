import GeoWakeCore
import RegionIndex

/// The region-monitoring service as a pure state machine: `(state, fix, now) -> (state, events)`, with no I/O
/// and no clock of its own, so that `geowake replay` and the daemon run exactly this code.
///
/// Every region starts unknown. Unknown and outside behave alike (entering either reports `enter`, deciding
/// outside reports nothing), so the monitor keeps state only for regions reported inside or with a change
/// waiting out the debounce. A fix costs one containment lookup (answered from the regions near a recent fix
/// while fixes stay close, else by `forEachRegion(containing:)`), one look at each active region, and a boundary
/// distance only where a region's state could change; regions registered far away cost nothing.
///
/// Time is the `now` given with each step. A fix given with a `now` earlier than the previous fix's is ignored,
/// as is a fix whose coordinate is not valid. A gap between fixes is not an exit: state only changes on a
/// decisive fix, or when a pending change or a dwell falls due. `advance(to:)` lets a live caller fire those on
/// time without waiting for the next fix; `update` fires whatever fell due before its `now` first, so replaying
/// fixes alone gives the same events. Events that fall due between fixes carry the last fix's position, stamped
/// with the instant they fell due.
public struct RegionMonitor<Regions: RegionQuerying> {
    /// Changed only through `add(_:)` and `remove(_:at:events:)`, which keep the monitor's state in step.
    public internal(set) var regions: Regions
    public let configuration: RegionMonitorConfiguration
    /// Everything a fix changes. Kept apart from the index, which its methods borrow as an argument: read
    /// out of `self` inside a mutating method, the index (a large struct) was copied before each call into it.
    var state = RegionMonitorState()

    public init(regions: Regions, configuration: RegionMonitorConfiguration = RegionMonitorConfiguration()) {
        self.regions = regions
        self.configuration = configuration
    }

    /// The reported state: true once `enter` was decided (whether or not it was notified), until `exit`.
    public func isInside(_ region: RegionHandle) -> Bool {
        state.track(of: region)?.isInside ?? false
    }

    /// The last fix the monitor accepted, its time set to the `now` it came with.
    public var lastFix: Fix? { state.lastFix }

    /// Regions reported inside or with a pending change: the only regions the monitor spends memory on.
    public var activeRegionCount: Int { state.tracks.count }

    /// The earliest instant at which a pending change or a dwell falls due; a live caller sets its timer to it.
    public var nextDeadline: Timestamp? {
        state.tracks.lazy.compactMap(\.nextDue).min()
    }

    // Generic code called from another module runs unspecialized, through metadata lookups on every call;
    // the index the CLI and the daemon use gets its own compiled copy.
    /// Feeds one fix observed at `now`, appending the events it causes in the contract's order.
    @specialized(where Regions == RegionIndex)
    public mutating func update(with fix: Fix, at now: Timestamp, events: inout [RegionEvent]) {
        state.update(with: fix, at: now, regions: regions, configuration: configuration, events: &events)
    }

    /// Convenience for callers that do not reuse an event buffer.
    public mutating func update(with fix: Fix, at now: Timestamp) -> [RegionEvent] {
        var events: [RegionEvent] = []
        update(with: fix, at: now, events: &events)
        return events
    }

    /// Lets go of the buffers the monitor keeps for its next fix (they hold no state), for a caller that holds
    /// many monitors idle between bursts of fixes, as a fleet worker holds its devices between messages.
    public mutating func releaseBuffers() {
        state.releaseBuffers()
    }

    /// Swaps the monitor's scratch buffers with `buffers`: a caller feeding many monitors lends one set to
    /// the monitor it feeds and takes it back after, so that none allocates its own.
    public mutating func exchangeBuffers(with buffers: inout RegionMonitorBuffers) {
        swap(&state.buffers, &buffers)
    }

    /// Fires the pending changes and dwells due at or before `now`, without a new fix. Their events carry the
    /// last fix's position, stamped with the instant each fell due.
    @specialized(where Regions == RegionIndex)
    public mutating func advance(to now: Timestamp, events: inout [RegionEvent]) {
        state.advance(to: now, regions: regions, events: &events)
    }
}

extension RegionMonitor: Sendable where Regions: Sendable {}

extension RegionMonitor: LocationService {}
