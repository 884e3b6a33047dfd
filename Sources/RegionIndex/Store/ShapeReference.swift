/// A tree or grid payload naming the shape to test, not the region: a circle by its number in
/// `RegionStore.circles`, or a polygon part by its number in `partHeaders`. A query goes from the index
/// straight to that record, stored in the index's order, and reads the region's slot only for a hit.
/// The kind is the low bit (set for parts), so that the reference stays one `UInt32` in the trees.
struct ShapeReference: Equatable {
    var rawValue: UInt32

    @inline(__always)
    init(rawValue: UInt32) { self.rawValue = rawValue }

    @inline(__always)
    init(circle: Int) { rawValue = UInt32(circle) << 1 }

    @inline(__always)
    init(part: Int) { rawValue = UInt32(part) << 1 | 1 }

    var isCircle: Bool { @inline(__always) get { rawValue & 1 == 0 } }

    /// The circle's number; meaningful only when `isCircle`.
    var circleNumber: Int { @inline(__always) get { Int(rawValue >> 1) } }

    /// The polygon part's number; meaningful only when not `isCircle`.
    var partNumber: Int { @inline(__always) get { Int(rawValue >> 1) } }
}
