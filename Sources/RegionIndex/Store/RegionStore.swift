import GeoWakeCore
import Synchronization

/// Hands each new store its identity, which its handles carry.
private let storeIdentities = Atomic<UInt32>(0)

/// Every region of an index, flat: one entry per slot in a few parallel arrays, ids in one byte buffer,
/// all polygon vertices in two coordinate arrays (see `FixedPoint`) with part and ring offsets. No per-region
/// objects, so a million regions cost tens of bytes each plus 8 bytes per vertex (16 without fixed point). Slots are handles: appended, never reused.
public struct RegionStore: Sendable {
    public enum Kind: UInt8, Sendable {
        case circle, polygon, beacon, removed
    }

    /// A geodesic circle with what decides clear cases without Vincenty: the local metres-per-degree
    /// scales and the squared local distances below which a point is surely inside and above which it is
    /// surely outside (see `RegionContainment`), and its slot: 48 bytes, padded to a cache line of its own.
    struct Circle: Equatable {
        var longitude: Double
        var latitude: Double
        var radius: Double
        var metresPerDegreeLatitude: Float
        var metresPerDegreeLongitude: Float
        var surelyInside2: Float
        var surelyOutside2: Float
        var slot: RegionSlot
        private var padding = SIMD2<UInt64>()

        init(longitude: Double, latitude: Double, radius: Double, metresPerDegreeLatitude: Float,
             metresPerDegreeLongitude: Float, surelyInside2: Float, surelyOutside2: Float, slot: RegionSlot) {
            (self.longitude, self.latitude, self.radius) = (longitude, latitude, radius)
            (self.metresPerDegreeLatitude, self.metresPerDegreeLongitude) = (metresPerDegreeLatitude, metresPerDegreeLongitude)
            (self.surelyInside2, self.surelyOutside2, self.slot) = (surelyInside2, surelyOutside2, slot)
        }
    }

    var kinds: [Kind] = []
    /// Per slot: index into `circles`, polygon number (into `polygonPartStart`) or index into `beacons`.
    var shapeIndex: [UInt32] = []
    private var flags: [UInt8] = []
    private var dwells: [RegionSlot: Double] = [:]
    private var idBytes: [UInt8] = []
    private var idEnds: [UInt32] = []
    private var ids = RegionIDTable()
    var circles = CacheLineArray<Circle>()
    /// The slot of each polygon part: shapes are stored in index order (see `reorderShapes`).
    var partSlots: [RegionSlot] = []
    /// Parts of polygon p are `polygonPartStart[p]..<polygonPartStart[p + 1]`; likewise parts → rings → positions.
    var polygonPartStart: [UInt32] = [0]
    var partRingStart: [UInt32] = [0]
    var ringPositionStart: [UInt32] = [0]
    /// Rings of polygon p, all parts: `polygonRingStart[p]..<polygonRingStart[p + 1]` (one lookup for queries).
    var polygonRingStart: [UInt32] = [0]
    /// Longitude, latitude pairs of the parts not exact in fixed point, and of all others in fixed point.
    /// Positions count vertices of all parts; each part's are at its stored position in one of the arrays.
    var coordinates: [Double] = []
    var fixedCoordinates: [Int32] = []
    var partFirstStored: [StoredPosition] = []
    /// Edge bands per polygon part (see `PolygonBands`): masks in the headers, lists for large parts.
    var partHeaders = CacheLineArray<PartHeader>()
    var bandEdgeStart: [UInt32] = []
    var bandEdges: [UInt32] = []
    /// Rasters of large parts (see `PartRaster`).
    var rasters: [RasterHeader] = []
    var rasterCells: [UInt8] = []
    private var beacons: [BeaconIdentity] = []
    public private(set) var liveCount = 0
    /// Carried by every handle this store gives out, and checked on every handle it is given.
    let identity: UInt32

    public init() {
        identity = storeIdentities.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Slots, including removed ones: every handle is below this.
    public var slotCount: Int { kinds.count }

    @inline(__always)
    func idRange(_ slot: RegionSlot) -> Range<Int> {
        (slot.index == 0 ? 0 : Int(idEnds[slot.index - 1]))..<Int(idEnds[slot.index])
    }

    /// Calls `body` with the UTF-8 bytes of every id, for comparisons without making strings.
    func withIDBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try idBytes.withUnsafeBufferPointer(body)
    }

    /// The same with the end of each slot's id in those bytes: for loops that must not touch `self` (a
    /// closure that reads the store's own arrays copies the store, a retain and release of each array).
    func withIDBytesAndEnds<R>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try idBytes.withUnsafeBufferPointer { bytes in try idEnds.withUnsafeBufferPointer { ends in try body(bytes, ends) } }
    }

    /// The handle of a slot, which must be below `slotCount`.
    @inline(__always)
    package func handle(slot: RegionSlot) -> RegionHandle {
        RegionHandle(slot: slot, store: identity)
    }

    /// Whether this store gave the handle out (removed or not).
    @inline(__always)
    public func owns(_ handle: RegionHandle) -> Bool {
        handle.store == identity && handle.slot.index < slotCount
    }

    /// The slot of a handle this store gave out. Any other (from another store, or forged through the
    /// package) is a programming error, stopped here with a message rather than as an index out of range deeper in.
    @inline(__always)
    func checkedSlot(_ handle: RegionHandle) -> RegionSlot {
        precondition(owns(handle), "RegionHandle \(handle.slot.rawValue) of store \(handle.store) was not given out by this store (\(identity))")
        return handle.slot
    }

    /// Every live region's handle, in the order they were added.
    public var handles: [RegionHandle] {
        kinds.indices.lazy.filter { self.kinds[$0] != .removed }.map { self.handle(slot: RegionSlot($0)) }
    }

    public func id(_ handle: RegionHandle) -> String {
        String(decoding: idBytes[idRange(checkedSlot(handle))], as: UTF8.self)
    }

    /// The region's id as the store holds its bytes, without making a string of them (a fleet worker writes
    /// every active region's id into each checkpoint). Not generic: called from another module, a generic one ran
    /// unspecialized, and was half of a checkpoint's cost.
    public func withIDBytes(_ handle: RegionHandle, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let range = idRange(checkedSlot(handle))
        idBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    public func handle(forID id: String) -> RegionHandle? {
        var id = id
        return id.withUTF8 { find($0) }.map { handle(slot: $0) }
    }

    package func find(_ id: UnsafeBufferPointer<UInt8>) -> RegionSlot? {
        idBytes.withUnsafeBufferPointer { bytes in
            ids.find(id) { kinds[$0.index] == .removed ? nil : UnsafeBufferPointer(rebasing: bytes[idRange($0)]) }
        }
    }

    /// Appends a validated draft; throws when its id is taken.
    package mutating func append(_ draft: FeatureDraft) throws(InvalidRegion) -> RegionHandle {
        try append(draft) { _ in InvalidRegion("duplicate id \(EchoedText.quoted(draft.id))") }
    }

    /// The same, throwing what `duplicate` makes of the slot that has the id already.
    package mutating func append(_ draft: FeatureDraft, duplicate: (_ earlier: RegionSlot) -> InvalidRegion) throws(InvalidRegion) -> RegionHandle {
        let slot = RegionSlot(kinds.count)
        var table = ids   // moved out, so that the probe may read the id bytes of `self`
        ids = RegionIDTable()
        let earlier = draft.id.withUnsafeBufferPointer { id in
            idBytes.withUnsafeBufferPointer { bytes in
                table.insert(slot: slot, id: id) { kinds[$0.index] == .removed ? nil : UnsafeBufferPointer(rebasing: bytes[idRange($0)]) }
            }
        }
        ids = table
        if let earlier { throw duplicate(earlier) }
        idBytes.append(contentsOf: draft.id)
        idEnds.append(UInt32(idBytes.count))
        flags.append((draft.notifyOnEntry ? 1 : 0) | (draft.notifyOnExit ? 2 : 0))
        if let dwell = draft.dwell { dwells[slot] = dwell }
        switch draft.geometry {
        case .none:
            kinds.append(.beacon)
            shapeIndex.append(UInt32(beacons.count))
            beacons.append(BeaconIdentity(uuid: draft.uuid!, major: draft.major, minor: draft.minor))
        case .point:
            kinds.append(.circle)
            shapeIndex.append(UInt32(circles.count))
            circles.append(Self.circle(longitude: draft.coordinates[0], latitude: draft.coordinates[1], radius: draft.radius!,
                                       slot: slot))
        case .polygon, .multiPolygon:
            kinds.append(.polygon)
            shapeIndex.append(UInt32(polygonPartStart.count - 1))
            let positionBase = ringPositionStart[ringPositionStart.count - 1], ringBase = UInt32(ringPositionStart.count - 1)
            for end in draft.ringEnds { ringPositionStart.append(positionBase + UInt32(end)) }
            var firstRing = 0
            draft.coordinates.withUnsafeBufferPointer { values in
                for end in draft.polygonEnds {
                    let start = firstRing == 0 ? 0 : draft.ringEnds[firstRing - 1]
                    partFirstStored.append(appendVertices(values, start..<draft.ringEnds[end - 1]))
                    partRingStart.append(ringBase + UInt32(end))
                    partSlots.append(slot)
                    firstRing = end
                }
            }
            polygonPartStart.append(UInt32(partRingStart.count - 1))
            polygonRingStart.append(UInt32(ringPositionStart.count - 1))
        }
        liveCount += 1
        return handle(slot: slot)
    }

    static func circle(longitude: Double, latitude: Double, radius: Double, slot: RegionSlot) -> Circle {
        let scale = Geodesy.metresPerDegree(atLatitude: latitude)
        var circle = Circle(longitude: longitude, latitude: latitude, radius: radius,
                            metresPerDegreeLatitude: Float(scale.latitude), metresPerDegreeLongitude: Float(scale.longitude),
                            surelyInside2: -1, surelyOutside2: .infinity, slot: slot)
        if circle.allowsLocalMetric {
            let margin = circle.localMetricMargin
            let inner = radius - margin, outer = radius + margin
            circle.surelyInside2 = inner > 0 ? PackedRTree.floatBelow(inner * inner) : -1
            circle.surelyOutside2 = PackedRTree.floatAbove(outer * outer)
        }
        return circle
    }

    /// Marks a slot removed and empties its shapes, so the index skips it without a look at `kinds`;
    /// its storage is reclaimed by the index's next rebuild (`reorderShapes`).
    mutating func remove(_ slot: RegionSlot) {
        guard slot.index < kinds.count, kinds[slot.index] != .removed else { return }
        let shape = Int(shapeIndex[slot.index])
        switch kinds[slot.index] {
        case .circle:
            circles[shape].surelyInside2 = -1
            circles[shape].surelyOutside2 = -1
        case .polygon:
            for part in Int(polygonPartStart[shape])..<Int(polygonPartStart[shape + 1]) where part < partHeaders.count {
                partHeaders[part].markRemoved()
            }
        case .beacon, .removed:
            break
        }
        kinds[slot.index] = .removed
        dwells[slot] = nil
        liveCount -= 1
    }

    public func kind(_ handle: RegionHandle) -> Kind { kinds[checkedSlot(handle).index] }

    public func attributes(of handle: RegionHandle) -> RegionAttributes {
        let slot = checkedSlot(handle)
        return RegionAttributes(id: id(handle), notifyOnEntry: flags[slot.index] & 1 != 0,
                                notifyOnExit: flags[slot.index] & 2 != 0, dwell: dwells[slot])
    }

    /// Whether the region notifies both its entry and its exit, without building its attributes (its id's string).
    package func notifiesEntryAndExit(_ handle: RegionHandle) -> Bool { flags[checkedSlot(handle).index] & 3 == 3 }

    /// Rings of polygon number p (all parts), as a range of ring numbers.
    @inline(__always)
    func rings(ofPolygon p: Int) -> Range<Int> {
        Int(polygonRingStart[p])..<Int(polygonRingStart[p + 1])
    }

    /// The region as a value (nil for a removed slot).
    public func region(_ handle: RegionHandle) -> Region? {
        let slot = checkedSlot(handle).index, a = attributes(of: handle)
        let shape: Region.Shape
        switch kinds[slot] {
        case .removed: return nil
        case .beacon: shape = .beacon(beacons[Int(shapeIndex[slot])])
        case .circle:
            let c = circles[Int(shapeIndex[slot])]
            shape = .circle(center: Coordinate(latitude: c.latitude, longitude: c.longitude), radius: c.radius)
        case .polygon:
            let p = Int(shapeIndex[slot])
            var polygons: [[[Coordinate]]] = []
            for part in Int(polygonPartStart[p])..<Int(polygonPartStart[p + 1]) {
                let stored = partFirstStored[part], first = positions(ofPart: part).lowerBound
                polygons.append((Int(partRingStart[part])..<Int(partRingStart[part + 1])).map { ring in
                    (Int(ringPositionStart[ring])..<Int(ringPositionStart[ring + 1])).map {
                        let v = vertex(stored.advanced(by: $0 - first))
                        return Coordinate(latitude: v.y, longitude: v.x)
                    }
                })
            }
            shape = .polygon(MultiPolygon(polygons: polygons))
        }
        return Region(id: a.id, shape: shape, notifyOnEntry: a.notifyOnEntry, notifyOnExit: a.notifyOnExit, dwell: a.dwell)
    }

    /// Bytes held by the store's arrays (capacity, not just count).
    public var memoryFootprint: Int {
        kinds.capacity + shapeIndex.capacity * 4 + flags.capacity + dwells.capacity * 16 + idBytes.capacity
            + idEnds.capacity * 4 + ids.memoryFootprint + circles.capacity * MemoryLayout<Circle>.stride
            + (partSlots.capacity + polygonRingStart.capacity) * 4
            + partHeaders.capacity * MemoryLayout<PartHeader>.stride
            + (bandEdgeStart.capacity + bandEdges.capacity) * 4
            + rasters.capacity * MemoryLayout<RasterHeader>.stride + rasterCells.capacity
            + (polygonPartStart.capacity + partRingStart.capacity + ringPositionStart.capacity) * 4
            + coordinates.capacity * 8 + fixedCoordinates.capacity * 4 + partFirstStored.capacity * 4
            + beacons.capacity * MemoryLayout<BeaconIdentity>.stride
    }

    /// Trims spare capacity after a bulk load.
    package mutating func shrinkToFit() {
        func shrink<T>(_ a: inout [T]) {
            if a.capacity > a.count + a.count / 64 + 16 { a = a.withUnsafeBufferPointer { Array($0) } }
        }
        shrink(&kinds); shrink(&shapeIndex); shrink(&flags); shrink(&idBytes); shrink(&idEnds)
        circles.shrinkToFit(); shrink(&partSlots); shrink(&polygonRingStart); shrink(&polygonPartStart); shrink(&partRingStart); shrink(&ringPositionStart)
        shrink(&coordinates); shrink(&fixedCoordinates); shrink(&partFirstStored); shrink(&beacons)
        partHeaders.shrinkToFit(); shrink(&bandEdgeStart); shrink(&bandEdges)
        shrink(&rasters); shrink(&rasterCells)
    }
}
