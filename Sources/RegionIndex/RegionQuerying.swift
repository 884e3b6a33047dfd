import GeoWakeCore

/// A region's stable handle inside one index: never reused while that index lives, so a monitor may key
/// its state by it even as regions come and go. It names the store that gave it out, so that a handle shown
/// to another store stops the process with a message instead of naming a stranger's region. An index and
/// its copies are one store in this sense: they share the handles given out before they were copied.
public struct RegionHandle: Hashable, Comparable, Sendable {
    /// The slot in the high half, the store's identity (`RegionStore.identity`) in the low: one integer to
    /// compare and hash, as cheap to sort as the bare slot it replaced.
    @usableFromInline let bits: UInt64

    /// The region's place in its store.
    package var slot: RegionSlot { RegionSlot(UInt32(truncatingIfNeeded: bits >> 32)) }
    /// The identity of the store that gave the handle out.
    package var store: UInt32 { UInt32(truncatingIfNeeded: bits) }

    /// Only a store hands out handles (`RegionStore.handle(slot:)`); a caller cannot forge one.
    @inline(__always)
    package init(slot: RegionSlot, store: UInt32) {
        bits = UInt64(slot.rawValue) << 32 | UInt64(store)
    }

    /// Handles of one store order as their regions were added. Inlinable: the monitor sorts handles on every fix.
    @inlinable
    public static func < (a: RegionHandle, b: RegionHandle) -> Bool { a.bits < b.bits }
}

/// What a region carries besides its geometry.
public struct RegionAttributes: Hashable, Sendable {
    public var id: String
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    /// Seconds of loitering before a `dwell` event; nil for none.
    public var dwell: Double?

    public init(id: String, notifyOnEntry: Bool = true, notifyOnExit: Bool = true, dwell: Double? = nil) {
        self.id = id
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.dwell = dwell
    }
}

/// What the region monitor asks of a spatial index; geographic regions only (beacon regions have no geometry).
/// Handles passed in must be the index's own: any other stops the process with a precondition message.
public protocol RegionQuerying {
    /// Calls `body` once for every region containing `point` (exact: geodesic circles, planar polygons).
    func forEachRegion(containing point: Coordinate, _ body: (RegionHandle) -> Void)

    /// Appends every region containing `point` to `handles`: `forEachRegion(containing:)` for a caller that
    /// collects them, as the region monitor does on every fix, and lends the query's buffers.
    func appendRegions(containing point: Coordinate, to handles: inout [RegionHandle], scratch: inout PointQueryScratch)

    /// Calls `body` once for every region whose geometry comes within `distance` metres of `point`
    /// (containing it, or with its boundary nearer than `distance`). May report a few more; never fewer.
    func forEachRegion(within distance: Double, of point: Coordinate, _ body: (RegionHandle) -> Void)

    /// Calls `body` once for every region that the straight segment from `a` to `b` (planar lon/lat) passes through.
    func forEachRegion(crossedBy a: Coordinate, _ b: Coordinate, _ body: (RegionHandle) -> Void)

    /// Metres from `point` to the region's boundary: negative inside, positive outside, and
    /// `contains(region, point) == (signedDistance <= 0)` always. Its magnitude changes by no more than the
    /// distance moved, to within a part in a thousand and millimetres: the monitor decides from an earlier
    /// measurement when that bound alone settles a threshold.
    func signedDistance(from point: Coordinate, to region: RegionHandle) -> Double

    /// `signedDistance(from:to:)` for a point the caller already knows to lie inside the region or not (as
    /// `forEachRegion(containing:)` reported it): an index can then skip its own containment test.
    func signedDistance(from point: Coordinate, to region: RegionHandle, inside: Bool) -> Double

    func contains(_ region: RegionHandle, _ point: Coordinate) -> Bool

    func attributes(of region: RegionHandle) -> RegionAttributes

    /// `forEachRegion(within:of:)` with each region's `signedDistance(from:to:)`.
    func forEachRegionMeasured(within distance: Double, of point: Coordinate, _ body: (RegionHandle, Double) -> Void)
}

extension RegionQuerying {
    public func appendRegions(containing point: Coordinate, to handles: inout [RegionHandle], scratch: inout PointQueryScratch) {
        forEachRegion(containing: point) { handles.append($0) }
    }

    public func signedDistance(from point: Coordinate, to region: RegionHandle, inside: Bool) -> Double {
        signedDistance(from: point, to: region)
    }

    public func forEachRegionMeasured(within distance: Double, of point: Coordinate, _ body: (RegionHandle, Double) -> Void) {
        forEachRegion(within: distance, of: point) { body($0, signedDistance(from: point, to: $0)) }
    }
}
