/// Where a polygon part's vertices start: in `RegionStore.fixedCoordinates` (fixed point, see `FixedPoint`)
/// or in `coordinates` (doubles), and the vertex number there. Which array is bit 31, so that a part
/// header keeps it in 4 bytes and the header stays one cache line.
struct StoredPosition: Equatable {
    var rawValue: UInt32

    private static let doublesFlag: UInt32 = 1 << 31

    @inline(__always)
    init(rawValue: UInt32) { self.rawValue = rawValue }

    @inline(__always)
    init(fixedPoint index: Int) { rawValue = UInt32(index) }

    @inline(__always)
    init(doubles index: Int) { rawValue = UInt32(index) | Self.doublesFlag }

    /// Whether the vertices are in `fixedCoordinates`; else in `coordinates`.
    var isFixedPoint: Bool { @inline(__always) get { rawValue & Self.doublesFlag == 0 } }

    /// The vertex number in its array.
    var index: Int { @inline(__always) get { Int(rawValue & ~Self.doublesFlag) } }

    /// The position `offset` vertices further, in the same array.
    @inline(__always)
    func advanced(by offset: Int) -> StoredPosition {
        StoredPosition(rawValue: rawValue &+ UInt32(truncatingIfNeeded: offset))
    }
}
