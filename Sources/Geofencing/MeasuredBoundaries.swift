import GeoWakeCore
import RegionIndex

/// A region's unsigned distance to its boundary, in metres, and where it was measured.
struct BoundaryMeasurement {
    var distance: Double
    var latitude: Double
    var longitude: Double
}

/// Boundary distances the monitor measured at recent fixes, so that a region measured again while the
/// device has hardly moved can often be decided without a new measurement; the neighbourhood's distances,
/// measured from its centre, serve the same way.
///
/// A distance to a boundary changes by at most the distance moved (it is 1-Lipschitz): measured as `b` at
/// `q`, it lies within `b ± |p − q|` at `p`. A gating or hysteresis threshold outside that band is decided
/// by `b` alone, exactly as a new measurement would decide it. The band is widened for what the index's
/// metrics are not: polygons are measured in the flat metric of the point's own latitude and circles in
/// a local metric within millimetres of the geodesic, so two measurements `|p − q|` apart differ by up to
/// a few parts in ten thousand of the distance (within 500 m, below 80° of latitude) and millimetres, not by
/// `|p − q|` alone. `movementFactor`, `distanceShare` and `slack` bound that generously.
///
/// It holds no state of the monitor's: emptied at any time, the monitor decides exactly the same.
struct MeasuredBoundaries {
    private struct Entry {
        let handle: RegionHandle
        var measurement: BoundaryMeasurement
    }

    /// Sorted by handle. Small: the regions whose boundaries passed within a threshold of a recent fix.
    private var entries: [Entry] = []
    /// The latitude the scale below was computed for, and the scale: computed once per fix, when first needed.
    private var scaledLatitude = Double.nan
    private var metresPerDegree = (latitude: 0.0, longitude: 0.0)

    /// Multiplies the distance moved. Tests set it below 1 to show that a wrong bound changes events.
    var movementFactor = 1.01
    /// Share of the measured distance added to the band, for the change of a metric's scale between points.
    var distanceShare = 0.01
    /// Metres added to the band: the local metrics' millimetres and the rounding of both measurements.
    var slack = 0.01
    /// When false every request is measured: the monitor without the shortcut, for tests to compare with.
    var isEnabled = true

    /// Measurements farther than this from the fix are rarely of use, and are dropped when the list is full.
    static let keptDistance = 100.0
    /// The list's size at which it is pruned, so that a moving device does not accumulate entries.
    static let capacity = 64
    /// Beyond this distance moved, or this latitude, a measurement is never reused: the bound above holds
    /// only while the metrics' scales change little between the two points.
    static let reusableDistance = 500.0
    static let reusableLatitude = 80.0

    /// Whether the region's boundary distance at `point` is at least `threshold` (more than it, when
    /// `strictly`), deciding from an earlier measurement (this list's, else `earlier`) when the device has
    /// moved too little for the answer to differ, and else calling `measure` (the unsigned distance at
    /// `point`) and keeping its answer.
    mutating func exceeds(_ threshold: Double, strictly: Bool, region: RegionHandle, at point: Coordinate,
                          earlier: BoundaryMeasurement?, measure: () -> Double) -> Bool {
        let position = index(of: region)
        let found = position < entries.count && entries[position].handle == region
        if isEnabled, let known = found ? entries[position].measurement : earlier,
           let decided = decide(threshold, from: known, at: point) {
            return decided
        }
        let distance = measure()
        // Anything but a distance (a region an index cannot measure) is answered, never kept.
        if distance.isFinite, distance >= 0 {
            let entry = Entry(handle: region, measurement: BoundaryMeasurement(
                distance: distance, latitude: point.latitude, longitude: point.longitude))
            if found {
                entries[position] = entry
            } else {
                entries.insert(entry, at: position)
                if entries.count >= Self.capacity { prune(around: point) }
            }
        }
        return strictly ? distance > threshold : distance >= threshold
    }

    /// Whether the distance at `point` is above `threshold` (true) or below it (false), as far as `known`
    /// alone settles it; nil when it does not.
    private mutating func decide(_ threshold: Double, from known: BoundaryMeasurement, at point: Coordinate) -> Bool? {
        setScale(for: point)
        guard let moved = distanceMoved(from: known, to: point) else { return nil }
        let band = moved * movementFactor + known.distance * distanceShare + slack
        if known.distance - band > threshold { return true }
        if known.distance + band < threshold { return false }
        return nil
    }

    /// Forgets every measurement, as a restore or a change of regions does.
    mutating func removeAll() {
        entries = []
        scaledLatitude = .nan
    }

    /// Sets the scale to `point`'s latitude, once per point. A statement of its own, before the scale is
    /// read: as an argument of a call on `self`, it would run after that call had read `self` (and a stale
    /// scale, or none, with it).
    private mutating func setScale(for point: Coordinate) {
        if point.latitude != scaledLatitude {
            metresPerDegree = Geodesy.metresPerDegree(atLatitude: point.latitude)
            scaledLatitude = point.latitude
        }
    }

    /// Metres between the entry's point and `point` in the flat metric of `point`'s latitude (the scale must
    /// be set to it), within the reusable range, else nil. Longitudes are subtracted as they are, not folded:
    /// the polygon metric does not fold them either.
    private func distanceMoved(from entry: BoundaryMeasurement, to point: Coordinate) -> Double? {
        guard abs(point.latitude) <= Self.reusableLatitude, abs(entry.latitude) <= Self.reusableLatitude else {
            return nil
        }
        let north = (point.latitude - entry.latitude) * metresPerDegree.latitude
        let east = (point.longitude - entry.longitude) * metresPerDegree.longitude
        let moved = (north * north + east * east).squareRoot()
        return moved <= Self.reusableDistance ? moved : nil
    }

    /// Drops the measurements far from `point`; all of them if that leaves the list over half full, so that
    /// a full list is not pruned again at the next insertion.
    private mutating func prune(around point: Coordinate) {
        setScale(for: point)
        var kept = entries
        kept.removeAll { entry in distanceMoved(from: entry.measurement, to: point).map { $0 > Self.keptDistance } ?? true }
        entries = kept.count <= Self.capacity / 2 ? kept : []
    }

    private func index(of region: RegionHandle) -> Int {
        entries.position(of: region) { $0.handle }
    }
}
