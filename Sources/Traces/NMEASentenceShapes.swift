/// The GGA and RMC last read by the field reader (`NMEACommonFields`), as shapes (`NMEALineShape`) with the places of
/// their fields: a line of the same shape is read from its digits alone. Values out of range (a minute of 60, an
/// altitude past its bounds) are refused, and the line is read by the field reader, which decides what it is.
struct NMEAGGAShape: Sendable {
    private var line = NMEALineShape()
    private var timeCount = 0
    private var position = NMEAPositionShape()
    private var quality = NMEADigitsShape(), satellites = NMEADigitsShape()
    private var hdop = NMEADigitsShape(), altitude = NMEADigitsShape()

    /// Takes the shape of a GGA the field reader vouched for.
    mutating func learn(_ body: UnsafePointer<UInt8>, _ scan: NMEALineScan) {
        line.forget()
        var f = NMEACommonFields(body, scan)
        let limit = scan.star + 4
        guard let time = f.field(), let φ = f.field(), let ns = f.field(), let λ = f.field(), let ew = f.field(),
              let quality = f.field(), let satellites = f.field(), let hdop = f.field(), let altitude = f.field(),
              scan.star + 4 >= 6 + 15,
              let position = NMEAPositionShape(body, φ, ns, λ, ew, limit: limit),
              let qualityShape = NMEADigitsShape(body, start: quality.start, count: quality.count, limit: limit),
              let satellitesShape = NMEADigitsShape(body, start: satellites.start, count: satellites.count, limit: limit),
              let hdopShape = NMEADigitsShape(body, start: hdop.start, count: hdop.count, limit: limit),
              let altitudeShape = NMEADigitsShape(body, start: altitude.start, count: altitude.count, limit: limit)
        else { return }
        timeCount = time.count
        self.position = position
        self.quality = qualityShape
        self.satellites = satellitesShape
        self.hdop = hdopShape
        self.altitude = altitudeShape
        line.learn(body, star: scan.star)
    }

    /// The GGA `body`, when it has the learned shape and its values are in range.
    @inline(__always)
    mutating func read(_ body: UnsafePointer<UInt8>, star: Int, _ timeMemo: inout NMEAFieldMemo<Int32?>,
                       _ positionMemo: inout NMEAFieldMemo<NMEAPosition?>) -> NMEAGGA? {
        guard line.matches(body, star: star) else { return nil }
        var gga = NMEAGGA()
        if timeCount > 0 {
            guard let time = NMEALineShapes.timeOfDay(body, count: timeCount) else { return nil }
            gga.timeOfDay = time
            // For the GST of this epoch, which the general reader reads.
            timeMemo.remember(body + 6, count: timeCount, time)
        }
        if !position.isEmpty {
            guard let position = position.read(body, &positionMemo) else { return nil }
            gga.position = position
        }
        if !quality.isEmpty {
            let value = quality.mantissa(body)
            guard value <= 9 else { return nil }
            gga.quality = Int(value)
        }
        if !satellites.isEmpty {
            let value = satellites.mantissa(body)
            guard value <= 99 else { return nil }
            gga.satellites = Int(value)
        }
        guard let hdop = NMEALineShapes.decimal(body, hdop, NMEASentenceParser.hdopRange) else { return nil }
        gga.hdop = hdop
        guard let altitude = NMEALineShapes.decimal(body, altitude, NMEASentenceParser.altitudeRange) else { return nil }
        gga.altitude = altitude
        return gga
    }
}

struct NMEARMCShape: Sendable {
    private var line = NMEALineShape()
    private var timeCount = 0
    private var status: UInt8?
    private var position = NMEAPositionShape()
    private var knots = NMEADigitsShape(), course = NMEADigitsShape()
    private var date = (start: 0, count: 0)
    private var faaMode: UInt8?

    /// Takes the shape of an RMC the field reader vouched for, unless its status or mode is a digit (the shape
    /// keeps the non-digit bytes only).
    mutating func learn(_ body: UnsafePointer<UInt8>, _ scan: NMEALineScan, _ rmc: NMEARMC) {
        line.forget()
        var f = NMEACommonFields(body, scan)
        let limit = scan.star + 4
        guard let time = f.field(), f.field() != nil, let φ = f.field(), let ns = f.field(), let λ = f.field(),
              let ew = f.field(), let knots = f.field(), let course = f.field(), let date = f.field(),
              scan.star + 4 >= 6 + 15,
              let position = NMEAPositionShape(body, φ, ns, λ, ew, limit: limit),
              let knotsShape = NMEADigitsShape(body, start: knots.start, count: knots.count, limit: limit),
              let courseShape = NMEADigitsShape(body, start: course.start, count: course.count, limit: limit),
              !NMEARMCShape.isDigit(rmc.status), !NMEARMCShape.isDigit(rmc.faaMode)
        else { return }
        timeCount = time.count
        status = rmc.status
        self.position = position
        self.knots = knotsShape
        self.course = courseShape
        self.date = date
        faaMode = rmc.faaMode
        line.learn(body, star: scan.star)
    }

    private static func isDigit(_ c: UInt8?) -> Bool {
        guard let c else { return false }
        return c &- UInt8(ascii: "0") < 10
    }

    /// The RMC `body`, when it has the learned shape and its values are in range; its date through `dateMemo`.
    @inline(__always)
    mutating func read(_ body: UnsafePointer<UInt8>, star: Int, _ positionMemo: inout NMEAFieldMemo<NMEAPosition?>,
                       _ dateMemo: inout NMEAFieldMemo<Int?>) -> NMEARMC? {
        guard line.matches(body, star: star) else { return nil }
        var rmc = NMEARMC(status: status, faaMode: faaMode)
        if timeCount > 0 {
            guard let time = NMEALineShapes.timeOfDay(body, count: timeCount) else { return nil }
            rmc.timeOfDay = time
        }
        if !position.isEmpty {
            guard let position = position.read(body, &positionMemo) else { return nil }
            rmc.position = position
        }
        guard let knots = NMEALineShapes.decimal(body, knots, NMEASentenceParser.speedRange) else { return nil }
        rmc.knots = knots
        guard let course = NMEALineShapes.decimal(body, course, NMEASentenceParser.courseRange) else { return nil }
        rmc.course = course
        if date.count > 0 {
            // A new date is decoded by the field reader, which remembers it.
            guard dateMemo.matches(body + date.start, available: date.count) != nil, let day = dateMemo.value else { return nil }
            rmc.day = day
        }
        return rmc
    }
}

/// Latitude and longitude in a line of known shape: four fields, read through the parser's position memo
/// (an RMC repeats the position text of its epoch's GGA).
struct NMEAPositionShape: Sendable {
    private var latitude = NMEADigitsShape(), longitude = NMEADigitsShape()
    /// The four fields' text.
    private var text = (start: 0, count: 0)

    /// All four fields empty.
    var isEmpty: Bool { latitude.isEmpty }

    init() {}

    init?(_ body: UnsafePointer<UInt8>, _ φ: (start: Int, count: Int), _ ns: (start: Int, count: Int),
          _ λ: (start: Int, count: Int), _ ew: (start: Int, count: Int), limit: Int) {
        guard var latitude = NMEADigitsShape(body, start: φ.start, count: φ.count, limit: limit),
              var longitude = NMEADigitsShape(body, start: λ.start, count: λ.count, limit: limit) else { return nil }
        latitude.negative = ns.count == 1 && body[ns.start] == NMEASentenceParser.south
        longitude.negative = ew.count == 1 && body[ew.start] == NMEASentenceParser.west
        self.latitude = latitude
        self.longitude = longitude
        text = (φ.start, ew.start + ew.count - φ.start)
    }

    /// The position of a line of this shape that is not all empty; nil when out of range.
    @inline(__always)
    func read(_ body: UnsafePointer<UInt8>, _ memo: inout NMEAFieldMemo<NMEAPosition?>) -> NMEAPosition? {
        let start = body + text.start
        if memo.matches(start, available: text.count) != nil, let remembered = memo.value { return remembered }
        guard let φ = NMEALineShapes.angle(body, latitude, maximumDegrees: 90),
              let λ = NMEALineShapes.angle(body, longitude, maximumDegrees: 180) else { return nil }
        let position = NMEAPosition(latitude: φ, longitude: λ)
        memo.remember(start, count: text.count, position)
        return position
    }
}

/// Decoding the digits of a field of known shape: the same arithmetic as `NMEAFields`, without the checks the
/// shape made.
enum NMEALineShapes {
    /// The time of day of a time field of `count` bytes (`hhmmss`, then a point and up to three digits).
    @inline(__always) static func timeOfDay(_ body: UnsafePointer<UInt8>, count: Int) -> Int32? {
        let line = UnsafeRawPointer(body)
        return SWARDigits.timeOfDay(UInt64(littleEndian: line.loadUnaligned(fromByteOffset: 6, as: UInt64.self)),
                                    UInt64(littleEndian: line.loadUnaligned(fromByteOffset: 13, as: UInt64.self)),
                                    fractionDigits: max(count &- 7, 0))
    }

    @inline(__always) static func angle(_ body: UnsafePointer<UInt8>, _ shape: NMEADigitsShape, maximumDegrees: Int64) -> Double? {
        let line = UnsafeRawPointer(body)
        let whole = SWARDigits.value(UInt64(littleEndian: line.loadUnaligned(fromByteOffset: shape.start, as: UInt64.self)),
                                     digits: shape.whole)
        let fractionWord = UInt64(littleEndian: line.loadUnaligned(fromByteOffset: shape.start &+ shape.whole &+ 1,
                                                                   as: UInt64.self))
        guard let value = NMEAFields.degrees(whole: Int64(whole), fraction: Int64(SWARDigits.value(fractionWord, digits: shape.fraction)),
                                             fractionDigits: shape.fraction, maximumDegrees: maximumDegrees) else { return nil }
        return shape.negative ? -value : value
    }

    /// The field's number, nil inside when the field is empty; nil when out of `range`.
    @inline(__always)
    static func decimal(_ body: UnsafePointer<UInt8>, _ shape: NMEADigitsShape, _ range: ClosedRange<Double>) -> Double?? {
        if shape.isEmpty { return .some(nil) }
        guard let value = NMEAFields.decimal(mantissa: shape.mantissa(body), scale: shape.fraction, negative: shape.negative, range)
        else { return nil }
        return value
    }
}
