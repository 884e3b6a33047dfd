import RegionIndex

/// Checks a draft against the contract before it joins a store. Cheap checks run first and name the
/// exact ring and position; GEOS decides polygon validity (self-intersection, holes outside shells,
/// overlapping parts), except for single simple rings, which `SimpleRing` proves valid much faster.
struct RegionValidator {
    let geos = GEOSContext()

    func validate(_ draft: inout FeatureDraft) throws(InvalidRegion) {
        guard draft.hasID else { throw InvalidRegion(RegionLoadError.missingID) }
        if let dwell = draft.dwell, !(dwell.isFinite && dwell >= 0) {
            throw InvalidRegion("dwell must be a number of seconds >= 0, found \(dwell)")
        }
        Self.clampToLimits(&draft.coordinates)
        switch draft.geometry {
        case .none: try validateBeacon(&draft)
        case .point: try validateCircle(draft)
        case .polygon, .multiPolygon: try validatePolygons(draft)
        }
    }

    /// How far beyond ±180° of longitude or ±90° of latitude a coordinate may lie and still count as on
    /// the line: float noise from exports (Natural Earth has Russia at 180.00000000000006), about 0.1 mm.
    static let limitTolerance = 1e-9

    /// Moves coordinates within `limitTolerance` beyond a limit onto it; anything farther is left for
    /// `checkPosition` to reject.
    static func clampToLimits(_ coordinates: inout [Double]) {
        coordinates.withUnsafeMutableBufferPointer { c in
            var i = 0
            while i + 1 < c.count {
                let lon = c[i], lat = c[i + 1]
                if abs(lon) > 180 && abs(lon) <= 180 + limitTolerance { c[i] = lon > 0 ? 180 : -180 }
                if abs(lat) > 90 && abs(lat) <= 90 + limitTolerance { c[i + 1] = lat > 0 ? 90 : -90 }
                i += 2
            }
        }
    }

    private func validateBeacon(_ draft: inout FeatureDraft) throws(InvalidRegion) {
        guard draft.isBeacon else {
            throw InvalidRegion("the geometry is null but properties.kind is not \"beacon\"")
        }
        guard let uuid = draft.uuid else { throw InvalidRegion("a beacon region needs properties.uuid") }
        guard let canonical = Self.canonicalUUID(uuid) else {
            throw InvalidRegion("beacon uuid \(EchoedText.quoted(uuid)) is not of the form 8-4-4-4-12 hexadecimal digits")
        }
        draft.uuid = canonical
    }

    static func canonicalUUID(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (i, b) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if b != UInt8(ascii: "-") { return nil }
            } else if !(b >= 0x30 && b <= 0x39 || b | 0x20 >= 0x61 && b | 0x20 <= 0x66) {
                return nil
            }
        }
        return text.uppercased()
    }

    private func validateCircle(_ draft: FeatureDraft) throws(InvalidRegion) {
        if draft.isBeacon { throw InvalidRegion("a beacon region must have a null geometry") }
        guard let radius = draft.radius else { throw InvalidRegion("a Point region needs properties.radius (metres > 0)") }
        guard radius.isFinite && radius > 0 else { throw InvalidRegion("radius must be a number of metres > 0, found \(radius)") }
        guard radius <= 10_000_000 else { throw InvalidRegion("radius \(radius) m is more than a quarter of the Earth") }
        try checkPosition(draft.coordinates[0], draft.coordinates[1], place: "the centre")
    }

    private func checkPosition(_ lon: Double, _ lat: Double, place: @autoclosure () -> String) throws(InvalidRegion) {
        guard lon.isFinite && lat.isFinite else {
            throw InvalidRegion("\(place()): coordinate is not a finite number ([\(lon), \(lat)])")
        }
        guard abs(lat) <= 90 else { throw InvalidRegion("\(place()): latitude \(lat) is outside -90...90") }
        guard abs(lon) <= 180 else { throw InvalidRegion("\(place()): longitude \(lon) is outside -180...180") }
    }

    private func validatePolygons(_ draft: FeatureDraft) throws(InvalidRegion) {
        if draft.isBeacon { throw InvalidRegion("a beacon region must have a null geometry") }
        let c = draft.coordinates
        var ring = 0, start = 0
        for (p, polygonEnd) in draft.polygonEnds.enumerated() {
            while ring < polygonEnd {
                let end = draft.ringEnds[ring]
                let name = "polygon \(p), ring \(ring - (p == 0 ? 0 : draft.polygonEnds[p - 1]))"
                guard end - start >= 4 else {
                    throw InvalidRegion("\(name) has \(end - start) positions; a ring needs at least 4")
                }
                for i in start..<end {
                    try checkPosition(c[2 * i], c[2 * i + 1], place: "\(name), position \(i - start)")
                }
                guard c[2 * start] == c[2 * end - 2] && c[2 * start + 1] == c[2 * end - 1] else {
                    throw InvalidRegion("\(name) is not closed: its last position differs from its first")
                }
                // An edge jumping more than 180° of longitude is an antimeridian crossing written the short
                // way round; along a pole (both ends at ±90°) it is only the pole itself, as in Antarctica.
                for i in start..<(end - 1) where abs(c[2 * i + 2] - c[2 * i]) > 180
                    && !(abs(c[2 * i + 1]) == 90 && c[2 * i + 3] == c[2 * i + 1]) {
                    throw InvalidRegion("\(name) crosses the antimeridian between positions \(i - start) and "
                        + "\(i - start + 1) ([\(c[2 * i]), \(c[2 * i + 1])] to [\(c[2 * i + 2]), \(c[2 * i + 3])]); "
                        + "split it there (RFC 7946, section 3.1.9)")
                }
                start = end
                ring += 1
            }
        }
        if draft.ringEnds.count == 1 && draft.coordinates.withUnsafeBufferPointer({ SimpleRing.isCertainlySimple($0) }) {
            return
        }
        let problem = draft.coordinates.withUnsafeBufferPointer { buffer -> String? in
            guard let geometry = geos.makeMultiPolygon(coordinates: buffer, ringEnds: draft.ringEnds[...],
                                                       polygonEnds: draft.polygonEnds[...]) else {
                return "GEOS rejected the rings"
            }
            defer { geos.destroy(geometry) }
            return geos.validityProblem(geometry)
        }
        if let problem { throw InvalidRegion("invalid polygon: \(problem)") }
    }
}
