/// What a grid entry holds besides its box (see `CellGrid`), read only for entries whose box holds the
/// point, in 24 bytes: for a polygon part, its raster over the box (`SubcellRaster`) and its payload; for
/// a circle (its tag has `circleFlag`), the circle itself in the places of the entry's cell (`CellCircle`).
struct CellEntry: Equatable {
    private var low: UInt64
    private var high: UInt64
    private var word: UInt32
    /// The item's tag, with `circleFlag` set when the entry holds a circle.
    private(set) var tag: UInt32

    /// Tags are region slots, far below 2^31.
    static let circleFlag: UInt32 = 1 << 31

    init(raster: SubcellRaster, payload: UInt32, tag: UInt32) {
        (low, high, word, self.tag) = (raster.low, raster.high, payload, tag)
    }

    init(circle: CellCircle, tag: UInt32) {
        low = UInt64(circle.x.bitPattern) | UInt64(circle.y.bitPattern) << 32
        high = UInt64(circle.scaleX.bitPattern) | UInt64(circle.scaleY.bitPattern) << 32
        word = circle.outside.bitPattern
        self.tag = tag | Self.circleFlag
    }

    var holdsCircle: Bool { tag & Self.circleFlag != 0 }

    /// The tag as given to the grid.
    var itemTag: UInt32 { tag & ~Self.circleFlag }

    var raster: SubcellRaster { SubcellRaster(low: low, high: high) }

    /// The payload of a polygon part's entry.
    var payload: UInt32 { word }

    /// What a query is handed when this entry cannot decide its point.
    var undecided: UndecidedEntry { @inline(__always) get { UndecidedEntry(rawValue: holdsCircle ? tag : payload) } }

    var circle: CellCircle {
        CellCircle(x: Float(bitPattern: UInt32(truncatingIfNeeded: low)), y: Float(bitPattern: UInt32(truncatingIfNeeded: low >> 32)),
                   scaleX: Float(bitPattern: UInt32(truncatingIfNeeded: high)), scaleY: Float(bitPattern: UInt32(truncatingIfNeeded: high >> 32)),
                   outside: Float(bitPattern: word))
    }
}

/// What the grid hands a query for an entry that cannot decide its point: a polygon part's payload, or,
/// for a circle (whose entry holds the circle where a payload would be), its tag with `CellEntry.circleFlag`.
struct UndecidedEntry {
    var rawValue: UInt32

    var isCircle: Bool { @inline(__always) get { rawValue & CellEntry.circleFlag != 0 } }

    /// A circle's tag as given to the grid; meaningful only when `isCircle`.
    var circleTag: UInt32 { @inline(__always) get { rawValue & ~CellEntry.circleFlag } }

    /// A polygon part's payload; meaningful only when not `isCircle`.
    var payload: UInt32 { @inline(__always) get { rawValue } }
}

/// A circle as a grid entry sees it, in the places of the entry's cell (`CellGrid.place`): a point at
/// place (px, py) is inside when ((px − x) · scaleX)² + ((py − y) · scaleY)² < 1, outside when that exceeds
/// `outside`, and undecided in the thin ring between, which holds the local metric's own margin and the
/// rounding of these floats (see `RegionStore.Circle.cellCircle`). Unlike a raster it decides a point
/// anywhere in the entry's box, to within that ring.
struct CellCircle {
    var x: Float
    var y: Float
    var scaleX: Float
    var scaleY: Float
    var outside: Float

    /// Undecided everywhere: NaN fails both comparisons.
    static let undecided = CellCircle(x: 0, y: 0, scaleX: .nan, scaleY: .nan, outside: .nan)

    /// `SubcellRaster.insideCode`, `outsideCode` or `undecidedCode` for the point at place (px, py).
    @inline(__always)
    func code(x px: Double, y py: Double) -> UInt64 {
        let u = (px - Double(x)) * Double(scaleX), v = (py - Double(y)) * Double(scaleY)
        let d2 = u * u + v * v
        return d2 < 1 ? SubcellRaster.insideCode : d2 > Double(outside) ? SubcellRaster.outsideCode : SubcellRaster.undecidedCode
    }
}

/// How the places of one grid cell map to degrees: `CellGrid.place` of a longitude or latitude.
struct CellPlaces {
    var minX = 0.0, minY = 0.0
    var perDegreeX = 1.0, perDegreeY = 1.0
    /// The cell's first place on each axis, counted from the grid's low corner.
    var cellX = 0.0, cellY = 0.0

    func x(_ longitude: Double) -> Double { CellGrid.place(longitude, minX, perDegreeX, cellX) }
    func y(_ latitude: Double) -> Double { CellGrid.place(latitude, minY, perDegreeY, cellY) }
}
