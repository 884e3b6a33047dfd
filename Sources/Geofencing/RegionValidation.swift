/// Checks a draft against the contract before it joins a store. Cheap checks run first and name the
/// exact ring and position; GEOS decides polygon validity (self-intersection, holes outside shells,
/// overlapping parts), except for single simple rings, which `SimpleRing` proves valid much faster.
struct RegionValidator {
    let geos = GEOSContext()

    func validate(_ draft: inout FeatureDraft) throws(InvalidRegion) {
        guard draft.hasID else { throw InvalidRegion("missing id (neither \"id\" nor \"properties.id\")") }
        if let dwell = draft.dwell, !(dwell.isFinite && dwell >= 0) {
            throw InvalidRegion("dwell must be a number of seconds >= 0, found \(dwell)")
        }
        switch draft.geometry {
        case .none: try validateBeacon(&draft)
        case .point: try validateCircle(draft)
        case .polygon, .multiPolygon: try validatePolygons(draft)
        }
    }

    private func validateBeacon(_ draft: inout FeatureDraft) throws(InvalidRegion) {
        guard draft.isBeacon else {
            throw InvalidRegion("the geometry is null but properties.kind is not \"beacon\"")
        }
        guard let uuid = draft.uuid else { throw InvalidRegion("a beacon region needs properties.uuid") }
        guard let canonical = Self.canonicalUUID(uuid) else {
            throw InvalidRegion("beacon uuid \"\(uuid)\" is not of the form 8-4-4-4-12 hexadecimal digits")
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
                var west = Double.infinity, east = -Double.infinity
                for i in start..<end {
                    try checkPosition(c[2 * i], c[2 * i + 1], place: "\(name), position \(i - start)")
                    west = min(west, c[2 * i])
                    east = max(east, c[2 * i])
                }
                guard c[2 * start] == c[2 * end - 2] && c[2 * start + 1] == c[2 * end - 1] else {
                    throw InvalidRegion("\(name) is not closed: its last position differs from its first")
                }
                guard east - west <= 180 else {
                    throw InvalidRegion("\(name) spans \(east - west)° of longitude; "
                        + "split it at the antimeridian (RFC 7946, section 3.1.9)")
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
