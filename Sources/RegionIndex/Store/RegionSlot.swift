/// A region's place in its store: the index into the store's per-region arrays (`kinds`, `shapeIndex`, ids),
/// given out in the order regions are added and never reused, removed regions included. Circles, polygon parts
/// and part headers carry the slot of their region, so that a hit found from the shape names its region.
package struct RegionSlot: Hashable, Comparable, Sendable, BitwiseCopyable {
    package let rawValue: UInt32

    @inline(__always)
    package init(_ rawValue: UInt32) { self.rawValue = rawValue }

    @inline(__always)
    init(_ index: Int) { rawValue = UInt32(index) }

    /// The position in the store's per-region arrays.
    @inline(__always)
    var index: Int { Int(rawValue) }

    @inline(__always)
    package static func < (a: RegionSlot, b: RegionSlot) -> Bool { a.rawValue < b.rawValue }
}
