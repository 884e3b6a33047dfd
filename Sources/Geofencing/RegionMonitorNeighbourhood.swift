import GeoWakeCore
import RegionIndex

/// The regions near a recent fix, so that the fixes that follow close by test a handful of regions instead of
/// searching the index again: at one fix a second, consecutive fixes are metres apart, and one query for the
/// regions within `reach` then serves every fix that stays within it.
///
/// Exact by construction: a region containing a fix that lies less than `reach` from the centre comes within
/// `reach` of the centre, so it is among the candidates (`forEachRegion(within:of:)` never reports fewer).
/// Each candidate keeps its signed distance from the centre, its clearance: a fix nearer the centre than the
/// boundary is lies on the centre's side of it, so only regions whose boundary passes close to the centre
/// need `contains`, the very test the containment query applies.
struct RegionMonitorNeighbourhood {
    struct Candidate {
        var handle: RegionHandle
        /// Metres from the centre to the boundary, negative inside.
        var clearance: Double
    }

    /// Metres around the centre whose regions are kept.
    static let reach = 100.0
    /// Fixes are served while within this share of `reach`: the margin absorbs the difference between this
    /// flat distance and the index's own metric, parts per million at this scale.
    static let servedShare = 0.9
    /// How far ahead of a moving device a new neighbourhood is centred, as a share of `reach`.
    static let leadShare = 0.8
    /// A neighbourhood that served fewer fixes than this before the device left it was not worth its query:
    /// the query and the candidates' clearances cost about as much as a few dozen point queries on the index's
    /// grid (on the bench sets, raising this from 4 cut the monitor's time by a tenth with a million regions,
    /// and left it unchanged with ten thousand).
    static let worthwhileFixes = 32
    /// After such a neighbourhood, this many fixes use plain containment queries before another is tried: a
    /// device that moved fast usually keeps moving.
    static let directFixesAfterMiss = 1024
    /// Metres a fix: a device this fast crosses a new neighbourhood (led ahead of it) in fewer fixes than
    /// `worthwhileFixes`, so it is not built; the device is treated as after a miss. A driving device left its
    /// first neighbourhood and built a second it then left within a dozen fixes: at a million regions every
    /// build measures over a thousand regions.
    static let hopelessStep = reach * (servedShare + leadShare) / Double(worthwhileFixes)

    private var center = Coordinate(latitude: 0, longitude: 0)
    private var metresPerDegree = (latitude: 0.0, longitude: 0.0)
    private var candidates: [Candidate] = []
    private var isValid = false
    private var fixesServed = 0
    private var directFixesLeft = 0
    private var lastPoint: Coordinate?

    /// Appends every region containing `point` to `hits`, in no particular order. A new neighbourhood is
    /// gathered in `room` (the monitor's buffers, lent by a caller feeding many monitors) and kept at its size.
    mutating func appendRegions(containing point: Coordinate, in regions: some RegionQuerying,
                                to hits: inout [RegionHandle], scratch: inout PointQueryScratch,
                                room: inout [Candidate]) {
        var distance = 0.0
        if isValid, let d = distanceFromCenter(point) {
            distance = d
            fixesServed += 1
        } else if isValid && fixesServed < Self.worthwhileFixes || directFixesLeft > 0
                    || Self.step(from: lastPoint, to: point) > Self.hopelessStep {
            // The device moves too fast for neighbourhoods to pay: ask the index directly for a while.
            isValid = false
            directFixesLeft = directFixesLeft > 0 ? directFixesLeft - 1 : Self.directFixesAfterMiss
            lastPoint = point
            regions.appendRegions(containing: point, to: &hits, scratch: &scratch)
            return
        } else {
            rebuild(around: Self.center(for: point, after: lastPoint), from: regions, room: &room)
            distance = distanceFromCenter(point) ?? 0
        }
        lastPoint = point
        // The 1 % and the centimetre absorb the difference between this flat distance and the index's metric.
        let decided = distance + 0.01
        guard let filler = candidates.first?.handle else { return }
        // Written in place, room made first: appended one by one, each paid a uniqueness check (and a buffer
        // from `withUnsafeTemporaryAllocation` over 1 KB is a heap allocation on Linux).
        let start = hits.count
        hits.append(contentsOf: repeatElement(filler, count: candidates.count))
        let found = hits.withUnsafeMutableBufferPointer { found in
            var count = start
            for candidate in candidates {
                let clearance = candidate.clearance * 0.99
                if clearance < -decided || clearance <= decided && regions.contains(candidate.handle, point) {
                    found[count] = candidate.handle
                    count += 1
                }
            }
            return count
        }
        hits.removeLast(hits.count - found)
    }

    /// The room the kept regions take, in regions: tests check that it stays near their count.
    var keptCapacity: Int { candidates.capacity }

    /// The region's distance to its boundary as measured from the centre, when it is a candidate of a
    /// neighbourhood in use.
    func measurement(of region: RegionHandle) -> BoundaryMeasurement? {
        guard isValid else { return nil }
        let low = candidates.position(of: region) { $0.handle }
        guard low < candidates.count, candidates[low].handle == region else { return nil }
        return BoundaryMeasurement(distance: abs(candidates[low].clearance), latitude: center.latitude,
                                   longitude: center.longitude)
    }

    /// Metres from the centre in the flat metric of the centre's latitude, when the point is served.
    private func distanceFromCenter(_ point: Coordinate) -> Double? {
        let north = (point.latitude - center.latitude) * metresPerDegree.latitude
        let east = Geodesy.normalizedLongitudeDelta(point.longitude - center.longitude) * metresPerDegree.longitude
        let squared = north * north + east * east
        let limit = Self.reach * Self.servedShare
        return squared <= limit * limit ? squared.squareRoot() : nil
    }

    /// Where a new neighbourhood is centred: ahead of a moving device, which then crosses the whole of it
    /// before leaving instead of half, so that moving fixes need half as many neighbourhoods.
    private static func center(for point: Coordinate, after previous: Coordinate?) -> Coordinate {
        guard let previous else { return point }
        let step = step(from: previous, to: point)
        guard step > 1, step < reach else { return point }
        let dLatitude = point.latitude - previous.latitude
        let dLongitude = Geodesy.normalizedLongitudeDelta(point.longitude - previous.longitude)
        let lead = reach * leadShare / step
        return Coordinate(latitude: min(90, max(-90, point.latitude + dLatitude * lead)),
                          longitude: Geodesy.normalizedLongitudeDelta(point.longitude + dLongitude * lead))
    }

    /// Metres from the previous fix, in the flat metric of the point's latitude; 0 with no previous fix.
    private static func step(from previous: Coordinate?, to point: Coordinate) -> Double {
        guard let previous else { return 0 }
        let scale = Geodesy.metresPerDegree(atLatitude: point.latitude)
        let north = (point.latitude - previous.latitude) * scale.latitude
        let east = Geodesy.normalizedLongitudeDelta(point.longitude - previous.longitude) * scale.longitude
        return (north * north + east * east).squareRoot()
    }

    private mutating func rebuild(around point: Coordinate, from regions: some RegionQuerying, room: inout [Candidate]) {
        room.removeAll(keepingCapacity: true)
        regions.forEachRegionMeasured(within: Self.reach, of: point) { handle, clearance in
            room.append(Candidate(handle: handle, clearance: clearance))
        }
        // `measurement(of:)` searches them by handle. The index reports them in that order; another
        // `RegionQuerying` need not.
        if zip(room, room.dropFirst()).contains(where: { !($0.handle < $1.handle) }) {
            room.sort { $0.handle < $1.handle }
        }
        // Copied at their size: grown by doubling, as the room is, they could leave half their memory empty,
        // in each of the thousands of devices a fleet worker holds.
        let fits = candidates.capacity >= room.count && candidates.capacity <= room.count + room.count / 4
        candidates.removeAll(keepingCapacity: fits)
        candidates.append(contentsOf: room)
        center = point
        metresPerDegree = Geodesy.metresPerDegree(atLatitude: point.latitude)
        isValid = true
        fixesServed = 1
    }
}
