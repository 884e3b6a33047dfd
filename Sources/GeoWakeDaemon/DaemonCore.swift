import Foundation
import GeoWakeCore
import Geofencing
import GeoWakeProtocol
import Logging

/// The daemon's decisions and the state they move: sessions, every client's regions, services and beacon
/// subscriptions, the source's health, and the store they read and requests write. It takes one input at a time
/// (`take`, `Decisions.swift`) and returns effects; it reads no clock and holds no socket, source or process — the
/// loop (`Daemon`) holds those, reads the clocks and carries the effects out.
final class DaemonCore {
    let paths: DaemonPaths
    let store: DaemonStore
    let logger: Logger
    /// The launcher, for what needs its answer (registering, a takeover, background tasks); news goes as `.tell`.
    let activation: ClientActivation
    let limits: DaemonLimits
    /// The health, regions, services and last fix every fix moves (`FixStep`); the properties below reach into it.
    var step: FixStep
    var health: SourceHealth {
        get { step.health }
        _modify { yield &step.health }
    }
    var regions: SharedRegions {
        get { step.regions }
        _modify { yield &step.regions }
    }
    var services: ClientServices {
        get { step.services }
        _modify { yield &step.services }
    }
    var lastFix: Fix? { step.lastFix }
    /// Who each open connection's peer is, and which client it registered as.
    var sessions: [ConnectionID: Session] = [:]
    /// What the decisions emitted and the loop has not taken yet (`DaemonEffect`).
    var effects: [DaemonEffect] = []
    /// Acks read this loop turn, applied together at `requestsRead`, before the turn's fix.
    var deferredAcks: [Request] = []
    /// Requests whose writes went out in `store` effects, in order, until the loop says what the store did.
    var awaiting: [AwaitingStore] = []
    var beacons: DaemonBeacons
    /// The fix source as the loop last reported it; nil for a daemon that serves beacons alone.
    var source: SourceFacts?
    /// A replayed trace's position after the last fix decided, until a stored batch carries it (`store`).
    var unstoredTracePosition: (source: String, position: Int)?
    /// The rowid the next region stored gets: chosen here, not by SQLite, so that a `monitor`'s regions enter the
    /// index with their rows while the loop writes them (`AlongsideWork`). A failed write leaves its rows unused.
    private var nextRegionRow: Int64 = 1
    /// The monotonic instant at which the loop hands in `.rebuildDeferredIndexes`: additions left an index's rebuild
    /// for later (`RegionGroup.add`), and this is `quietBeforeRebuild` after the last of them.
    private(set) var indexRebuildDue: Double?
    private var additionsSeen = 0
    /// A `monitor` burst (a thousand clients registering at a boot) is over once no region came for this long.
    static let quietBeforeRebuild = 0.5

    /// Puts every stored client's rules, regions, services and beacon regions back.
    init(paths: DaemonPaths, store: DaemonStore, logger: Logger, activation: ClientActivation, limits: DaemonLimits,
         health: SourceHealth.Limits, regionRules: RegionMonitorConfiguration, beacons: DaemonBeacons, source: SourceFacts?) throws {
        self.paths = paths
        self.store = store
        self.logger = logger
        self.activation = activation
        self.limits = limits
        self.beacons = beacons
        self.source = source
        step = FixStep(health: SourceHealth(limits: health), regions: try SharedRegions(defaults: regionRules))
        for (client, rules) in try store.read(RegionRules.all) {
            try regions.choose(rules, for: client, at: Timestamp(secondsSince1970: 0))
        }
        try regions.restore(owners: store.regionOwners(), reading: store.forEachStoredRegion)
        try services.restore(from: store)
        try restoreBeacons()
        nextRegionRow = try store.regionRowAfterLast()
    }

    /// After each input: regions added put the deferred rebuild off again.
    func noteAdditions(at monotonic: Double) {
        guard regions.additions != additionsSeen else { return }
        additionsSeen = regions.additions
        indexRebuildDue = regions.hasDeferredRebuild ? monotonic + Self.quietBeforeRebuild : nil
    }

    /// The rebuilds additions deferred, done now that they stopped; nothing any client sees changes.
    func rebuildDeferredIndexes() {
        regions.rebuildDeferredIndexes()
        indexRebuildDue = nil
    }

    /// The first of `count` consecutive rowids for new regions.
    func reserveRegionRows(_ count: Int) -> Int64 {
        defer { nextRegionRow += Int64(count) }
        return nextRegionRow
    }

    /// What `status` shows as the source's state.
    var sourceStateDescription: String {
        guard let source, source.state == .running else { return source?.state.rawValue ?? "idle" }
        return health.state?.rawValue ?? (source.isLive ? "connecting" : "running")
    }
}
