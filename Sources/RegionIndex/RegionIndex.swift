import GeoWakeCore

/// The spatial index of geographic regions: a packed Hilbert R-tree over every region present at the last
/// build (for box queries) and a uniform grid over the same (for point queries, see `CellGrid`), plus, for regions
/// added since, a few smaller trees and a short unsorted tail, so that adds and removes cost little while queries
/// go on. The smaller trees are levels of halving size (the logarithmic method): a level is merged with the one
/// before it once it is half its size, so an added region is sorted into a tree a logarithmic number of times,
/// and a query visits a logarithmic number of trees. Removed regions are skipped at query time and dropped at the
/// next rebuild, which happens once the additions reach twice the main tree or the removals an eighth of the index
/// (additions that defer it: when their owner asks, or at eight times the main tree).
/// Tree payloads are shape references (`ShapeReference`), not slots: a query goes from the tree straight
/// to the circle or polygon data, stored in the tree's order, and looks up the slot only for a hit.
public struct RegionIndex: Sendable {
    public private(set) var store: RegionStore
    private var tree = PackedRTree()
    private var grid = CellGrid()
    /// Boxes and shape references of the items added since `tree` was built; the first `levelled` of them are in
    /// `levels`, each level a tree over the items that follow the previous level's.
    private var addedBoxes: [Double] = []
    private var addedShapes: [ShapeReference] = []
    private var levels: [PackedRTree] = []
    private var levelled = 0
    private var removedSinceBuild = 0

    /// Items in the unsorted tail before it is sorted into a level.
    static let tailLimit = 64

    /// An empty index.
    public init() {
        store = RegionStore()
    }

    /// Bulk-builds the index over every region of a store (beacon regions are kept but not indexed).
    public init(_ store: RegionStore) {
        self.store = store
        rebuild()
    }

    /// Live regions, beacon regions included.
    public var count: Int { store.liveCount }

    /// Adds a region that the validator (in `Regions`) has accepted; throws only for a duplicate id. Its
    /// handle stays valid until it is removed.
    package mutating func add(validated draft: FeatureDraft) throws(InvalidRegion) -> RegionHandle {
        let handle = try append(draft)
        settleAdditions()
        return handle
    }

    /// Adds many validated regions in one step: the index decides once whether to rebuild, where adding them one
    /// by one sorted the recent items anew every `tailLimit` of them. On a duplicate id, those before it stay added.
    ///
    /// `deferringRebuild` is for additions that come in bursts (the daemon's `monitor`s): the levels may then grow to
    /// `deferredRebuildFactor` times the main tree before a rebuild, and the owner calls `rebuildIfDeferred()` once
    /// the burst is over. Registering a million regions a thousand at a time otherwise rebuilt the index six times
    /// on the way (900,000 regions in all), each rebuild stopping every other request until it was done.
    package mutating func add(validated drafts: [FeatureDraft], deferringRebuild: Bool = false) throws(InvalidRegion) -> [RegionHandle] {
        defer { settleAdditions(rebuildingPast: deferringRebuild ? Self.deferredRebuildFactor : Self.rebuildFactor) }
        var handles: [RegionHandle] = []
        handles.reserveCapacity(drafts.count)
        for draft in drafts { handles.append(try append(draft)) }
        return handles
    }

    private mutating func append(_ draft: FeatureDraft) throws(InvalidRegion) -> RegionHandle {
        let handle = try store.append(draft)
        store.appendMissingBands()
        store.boxes(ofSlot: handle.slot) { box, part in
            box.appending(to: &addedBoxes)
            addedShapes.append(store.shapeReference(ofSlot: handle.slot, part: part))
        }
        return handle
    }

    /// How far the levels grow, against the main tree, before `add` rebuilds.
    static let rebuildFactor = 2

    /// How far the levels may grow, against the main tree, while a rebuild is deferred: a point query then visits
    /// a few more level trees, and tests the regions found in them without the grid's verdicts.
    static let deferredRebuildFactor = 8

    /// Whether additions were left in the levels past the point where `add` rebuilds when not deferring.
    package var hasDeferredRebuild: Bool { Self.rebuildIsDue(added: addedShapes.count, built: tree.itemCount, factor: Self.rebuildFactor) }

    /// Does the rebuild that deferring additions left for later, if any.
    package mutating func rebuildIfDeferred() {
        if hasDeferredRebuild { rebuild() }
    }

    private static func rebuildIsDue(added: Int, built: Int, factor: Int) -> Bool {
        added > max(1024, factor * built)
    }

    /// Past the unsorted tail's limit, sorts the tail into a level of its own, merged with the levels before it
    /// while it is at least half their size; rebuilds once the added items are `factor` times the main tree. At
    /// twice, the index triples from rebuild to rebuild, and regions added in batches are built into a main tree
    /// and grid 1.5 times in all, where rebuilding at half the tree built them 3 times.
    private mutating func settleAdditions(rebuildingPast factor: Int = rebuildFactor) {
        guard addedShapes.count - levelled > Self.tailLimit else { return }
        if Self.rebuildIsDue(added: addedShapes.count, built: tree.itemCount, factor: factor) {
            rebuild()
            return
        }
        var start = levelled
        while let last = levels.last, 2 * (addedShapes.count - start) >= last.itemCount {
            start -= last.itemCount
            levels.removeLast()
        }
        levels.append(PackedRTree(boxes: Array(addedBoxes[4 * start ..< 4 * addedShapes.count]),
                                  payloads: addedShapes[start...].map(\.rawValue)))
        levelled = addedShapes.count
    }

    /// Removes a region; already removed handles are ignored, and another store's stop the process.
    public mutating func remove(_ handle: RegionHandle) {
        guard store.kind(handle) != .removed else { return }
        var boxes: [GeoBox] = []
        store.boxes(ofSlot: handle.slot) { box, _ in boxes.append(box) }
        for box in boxes {
            grid.forgetVerdicts(tag: handle.slot.rawValue, minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY)
        }
        store.remove(handle.slot)
        removedSinceBuild += 1
        if removedSinceBuild > max(1024, store.liveCount / 8) { rebuild() }
    }

    public func handle(forID id: String) -> RegionHandle? { store.handle(forID: id) }

    /// The region as a value; nil once removed.
    public func region(_ handle: RegionHandle) -> Region? { store.region(handle) }

    /// Rebuilds the main tree over every live region, and lays the shapes out in the tree's order.
    private mutating func rebuild() {
        // Grid entries flag circles in their slot's top bit.
        precondition(store.slotCount < Int(CellEntry.circleFlag), "more than 2^31 regions")
        let (boxes, itemSlots, itemParts) = store.indexItems()
        tree = PackedRTree(boxes: boxes, payloads: Array(0..<UInt32(itemSlots.count)))
        let order = tree.leafPayloads
        store.reorderShapes(gather(itemSlots, at: order))
        // The trees and the grid carry shape references as the integers they wrap.
        let shapes = (0..<itemSlots.count).map { store.shapeReference(ofSlot: itemSlots[$0], part: Int(itemParts[$0])).rawValue }
        tree.mapLeafPayloads { shapes[Int($0)] }
        // The grid takes the items in the tree's order, the order of the shapes in the store: its build
        // then reads the shapes' records and fills its cells in runs instead of at random.
        grid = CellGrid(boxes: gather(boxes, at: order, width: 4), payloads: gather(shapes, at: order),
                        tags: gather(itemSlots, at: order).map(\.rawValue)) { [store] shape, frames, entries in
            store.classify(shape: ShapeReference(rawValue: shape), frames: frames, entries: entries)
        }
        addedBoxes = []
        addedShapes = []
        levels = []
        levelled = 0
        removedSinceBuild = 0
    }

    /// Calls `body` with the shape reference of every indexed region whose box meets the query box (one
    /// whose box is split at the antimeridian may come twice for box queries, never for point queries).
    @inline(__always)
    func forEachCandidate(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (ShapeReference) -> Void) {
        tree.search(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { body(ShapeReference(rawValue: $0)) }
        forEachAddedCandidate(minX: minX, minY: minY, maxX: maxX, maxY: maxY, body)
    }

    /// The same for a point, from the grid instead of the main tree: calls `inside` with the slot of each
    /// region the grid knows to contain the point, and `undecided` with the shape reference of each other
    /// candidate.
    @inline(__always)
    func forEachCandidate(x: Double, y: Double, inside: (RegionSlot) -> Void, undecided: (ShapeReference) -> Void) {
        grid.forEach(x: x, y: y, inside: { inside(RegionSlot($0)) }) { entry in
            // A circle's entry gives its slot: only points within a hair of its boundary come here.
            undecided(entry.isCircle ? store.shapeReference(ofSlot: RegionSlot(entry.circleTag), part: 0) : ShapeReference(rawValue: entry.payload))
        }
        forEachAddedCandidate(minX: x, minY: y, maxX: x, maxY: y, undecided)
    }

    @inline(__always)
    private func forEachAddedCandidate(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (ShapeReference) -> Void) {
        guard !addedShapes.isEmpty else { return }
        for level in levels {
            level.search(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { body(ShapeReference(rawValue: $0)) }
        }
        addedBoxes.withUnsafeBufferPointer { b in
            for item in levelled..<addedShapes.count {
                let p = 4 * item
                if b[p] <= maxX && b[p + 1] <= maxY && b[p + 2] >= minX && b[p + 3] >= minY { body(addedShapes[item]) }
            }
        }
    }

    /// The item counts of the trees over regions added since the last build, largest first.
    var addedLevelSizes: [Int] { levels.map(\.itemCount) }

    /// Bytes held by the index and its store.
    public var memoryFootprint: Int {
        store.memoryFootprint + tree.memoryFootprint + grid.memoryFootprint + levels.reduce(0) { $0 + $1.memoryFootprint } + addedBoxes.capacity * 8 + addedShapes.capacity * 4
    }
}

