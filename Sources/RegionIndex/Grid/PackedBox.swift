/// A grid entry's box within its cell, in sub-cells (1/256 of the cell per axis, 0...255), packed in 4
/// bytes so that the point query's vector kernel (`quantized_boxes_holding`) tests 16 entries in one load:
/// west in the low byte, then east, south, north.
struct PackedBox: Equatable {
    var rawValue: UInt32

    @inline(__always)
    init(rawValue: UInt32) { self.rawValue = rawValue }

    @inline(__always)
    init(west: Int, east: Int, south: Int, north: Int) {
        rawValue = UInt32(west | east << 8 | south << 16 | north << 24)
    }

    /// The first and last sub-cell columns of the box.
    var west: UInt32 { @inline(__always) get { rawValue & 255 } }
    var east: UInt32 { @inline(__always) get { rawValue >> 8 & 255 } }
    /// The first and last sub-cell rows.
    var south: UInt32 { @inline(__always) get { rawValue >> 16 & 255 } }
    var north: UInt32 { @inline(__always) get { rawValue >> 24 } }
}
