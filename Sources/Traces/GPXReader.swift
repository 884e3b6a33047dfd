import GeoWakeCore
import JSONText

/// Reads the track points of a GPX 1.1 file: `<trkpt lat=".." lon="..">` with `<ele>`, `<time>`,
/// `<sat>`, `<hdop>`, `<fix>`, and `speed`/`course` from GPX 1.0 or a track-point extension.
/// Only the current `<trkpt>` element is held in memory, never the whole document. A file without a
/// track gives its route points (`<rtept>`), or failing those its waypoints (`<wpt>`): GPX puts both
/// before the tracks, so they are held until the first track point or the end shows which to use.
public struct GPXReader: Sendable {
    public private(set) var statistics = TraceStatistics(records: "points")
    /// Unscanned bytes: a track point split across chunks, or a tail that may begin `<trkpt`.
    private var pending: [UInt8] = []
    private var sawTrack = false
    private var routePoints: [Fix] = []
    private var waypoints: [Fix] = []

    private enum Element {
        case track, route, waypoint

        /// The length of the name with its `<`.
        var nameLength: Int { self == .waypoint ? 4 : 6 }

        var closingTag: StaticString {
            switch self {
            case .track: "</trkpt>"
            case .route: "</rtept>"
            case .waypoint: "</wpt>"
            }
        }
    }

    /// Longest `<trkpt>` element accepted (extensions included).
    static let maximumElementLength = 1 << 20

    public init() {}

    public mutating func consume(_ bytes: UnsafeRawBufferPointer, _ emit: (Fix) -> Void) {
        var buffer = pending
        pending = []
        buffer.append(contentsOf: bytes)
        let consumed = buffer.withUnsafeBufferPointer { scan($0, atEnd: false, emit) }
        pending = Array(buffer[consumed...])
        if pending.count > GPXReader.maximumElementLength {
            statistics.sentences += 1
            statistics.malformed += 1
            pending = []
        }
    }

    public mutating func finish(_ emit: (Fix) -> Void) {
        let buffer = pending
        pending = []
        _ = buffer.withUnsafeBufferPointer { scan($0, atEnd: true, emit) }
        if !sawTrack {
            let points = routePoints.isEmpty ? waypoints : routePoints
            points.forEach(emit)
            statistics.fixes += points.count
        }
        routePoints = []
        waypoints = []
    }

    /// Handles every complete track point and returns how many bytes are done with.
    private mutating func scan(_ s: UnsafeBufferPointer<UInt8>, atEnd: Bool, _ emit: (Fix) -> Void) -> Int {
        var i = 0
        while true {
            let next = sawTrack ? XMLText.find("<trkpt", in: s, from: i).map { ($0, Element.track) } : nextPoint(s, from: i)
            guard let (start, element) = next else {
                return atEnd ? s.count : max(i, s.count - 6)   // "<trkpt" may straddle the chunk boundary
            }
            let afterName = start + element.nameLength
            guard afterName < s.count else { return start }
            guard s[afterName] <= UInt8(ascii: " ") || s[afterName] == UInt8(ascii: ">")
                    || s[afterName] == UInt8(ascii: "/") else {
                i = afterName   // e.g. <trkptx>
                continue
            }
            guard let tagEnd = XMLText.find(">", in: s, from: afterName) else {
                return atEnd ? countTruncated() : start
            }
            let end: Int
            if s[tagEnd - 1] == UInt8(ascii: "/") {
                end = tagEnd + 1
            } else if let close = XMLText.find(element.closingTag, in: s, from: tagEnd) {
                end = close + element.closingTag.utf8CodeUnitCount
            } else {
                return atEnd ? countTruncated() : start
            }
            point(UnsafeBufferPointer(rebasing: s[start..<end]), element, startTagEnd: tagEnd - start, emit)
            i = end
        }
    }

    /// The next `<trkpt`, `<rtept` or `<wpt` before any track point has been seen.
    private func nextPoint(_ s: UnsafeBufferPointer<UInt8>, from: Int) -> (Int, Element)? {
        var i = from
        while let open = XMLText.find("<", in: s, from: i) {
            guard open + 6 <= s.count else { return nil }
            if s[open + 1] == UInt8(ascii: "t") && XMLText.find("<trkpt", in: UnsafeBufferPointer(rebasing: s[open..<open + 6]), from: 0) == 0 {
                return (open, .track)
            }
            if s[open + 1] == UInt8(ascii: "r") && XMLText.find("<rtept", in: UnsafeBufferPointer(rebasing: s[open..<open + 6]), from: 0) == 0 {
                return (open, .route)
            }
            if s[open + 1] == UInt8(ascii: "w") && s[open + 2] == UInt8(ascii: "p") && s[open + 3] == UInt8(ascii: "t") {
                return (open, .waypoint)
            }
            i = open + 1
        }
        return nil
    }

    private mutating func countTruncated() -> Int {
        statistics.sentences += 1
        statistics.malformed += 1
        return 0
    }

    private mutating func point(_ text: UnsafeBufferPointer<UInt8>, _ element: Element, startTagEnd: Int, _ emit: (Fix) -> Void) {
        statistics.sentences += 1
        var point = GPXPoint()
        point.read(text, nameLength: element.nameLength, startTagEnd: startTagEnd)
        guard !point.isMalformed, let latitude = point.latitude, let longitude = point.longitude else {
            statistics.malformed += 1
            return
        }
        guard let fix = point.fix(latitude, longitude) else { return }
        switch element {
        case .track:
            if !sawTrack {
                sawTrack = true
                routePoints = []
                waypoints = []
            }
            emit(fix)
            statistics.fixes += 1
        case .route: routePoints.append(fix)
        case .waypoint: waypoints.append(fix)
        }
    }
}

/// The values of one `<trkpt>`.
private struct GPXPoint {
    var isMalformed = false
    var latitude: Double?
    var longitude: Double?
    var elevation: Double?
    var time: Timestamp?
    var speed: Double?
    var course: Double?
    var satellites: Int?
    var hdop: Double?
    /// `<fix>`: "none", "2d", "3d", "dgps", "pps".
    var fixType: UnsafeBufferPointer<UInt8>?

    mutating func read(_ e: UnsafeBufferPointer<UInt8>, nameLength: Int, startTagEnd: Int) {
        XMLText.attributes(UnsafeBufferPointer(rebasing: e[nameLength..<startTagEnd])) { name, value in
            if name.equals("lat") { latitude = number(value, -90...90) }
            else if name.equals("lon") { longitude = number(value, -180...180) }
        }
        XMLText.childElements(UnsafeBufferPointer(rebasing: e[startTagEnd...])) { name, text in
            if name.equals("ele") { elevation = number(text, -1_000...100_000) }
            else if name.equals("time") {
                time = ISO8601.timestamp(XMLText.trimmed(text))
                if time == nil { isMalformed = true }
            }
            else if name.equals("speed") { speed = number(text, 0...1_100) }
            else if name.equals("course") { course = number(text, 0...360) }
            else if name.equals("sat") { satellites = number(text, 0...999).flatMap { Int(exactly: $0) } }
            else if name.equals("hdop") { hdop = number(text, 0...1_000) }
            else if name.equals("fix") { fixType = XMLText.trimmed(text) }
        }
    }

    private mutating func number(_ text: UnsafeBufferPointer<UInt8>, _ range: ClosedRange<Double>) -> Double? {
        guard let value = DecimalText.double(text), range.contains(value) else {
            isMalformed = true
            return nil
        }
        return value
    }

    func fix(_ latitude: Double, _ longitude: Double) -> Fix? {
        var fix = Fix(time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude))
        fix.altitudeMSL = elevation
        fix.speed = speed
        fix.course = course.map { $0 == 360 ? 0 : $0 }
        fix.satellites = satellites
        if let hdop, hdop > 0 { fix.horizontalAccuracy = hdop * NMEAEpoch.userEquivalentRangeError }
        if let fixType, fixType.equals("none") { return nil }
        if let fixType, fixType.equals("2d") {
            fix.mode = .twoD
        } else if let fixType, fixType.equals("3d") {
            fix.mode = .threeD
        } else {
            fix.mode = elevation == nil ? .twoD : .threeD
        }
        return fix
    }
}
