import GeoWakeCore
import JSONText
import RegionIndex

extension GeoJSONReader {
    /// Reads a geometry object (or `null`) into the draft. The nesting of `coordinates` is read before the
    /// type may be known (members come in any order), so it is recorded as ring and polygon ends and
    /// checked against the type at the end.
    mutating func readGeometry(into draft: inout FeatureDraft) throws {
        if scanner.null() { draft.geometry = .none; return }
        guard scanner.peek() == UInt8(ascii: "{") else { throw InvalidRegion("\"geometry\" must be an object or null") }
        scanner.position += 1
        var type: String?
        var depth: Int?
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                let key = try scanner.string()
                try scanner.expect(UInt8(ascii: ":"))
                if key.equals("type") {
                    guard scanner.peek() == UInt8(ascii: "\"") else { throw InvalidRegion("the geometry type must be a string") }
                    type = String(decoding: try scanner.string(), as: UTF8.self)
                } else if key.equals("coordinates") {
                    guard scanner.peek() == UInt8(ascii: "[") else { throw InvalidRegion("\"coordinates\" must be an array") }
                    depth = try readCoordinates(into: &draft, level: 1)
                } else {
                    try scanner.skipValue()
                }
            } while try scanner.nextElement(closing: UInt8(ascii: "}"))
        }
        guard let type else { throw InvalidRegion("the geometry has no \"type\"") }
        let expected: Int
        switch type {
        case "Point": draft.geometry = .point; expected = 1
        case "Polygon": draft.geometry = .polygon; expected = 3
        case "MultiPolygon": draft.geometry = .multiPolygon; expected = 4
        default:
            throw InvalidRegion("unsupported geometry type \(EchoedText.quoted(type)) (expected Point, Polygon, MultiPolygon or null)")
        }
        guard let depth else { throw InvalidRegion("the \(type) has no \"coordinates\"") }
        guard depth == expected else {
            throw InvalidRegion("the \(type)'s coordinates are nested \(depth) deep, expected \(expected)")
        }
    }

    /// Reads one coordinates array and returns its nesting depth (1 for a position).
    private mutating func readCoordinates(into draft: inout FeatureDraft, level: Int) throws -> Int {
        guard level <= 4 else { throw InvalidRegion("coordinates are nested more than 4 deep") }
        try scanner.expect(UInt8(ascii: "["))
        if scanner.atNumber() {
            let lon = try scanner.number()
            try scanner.expect(UInt8(ascii: ","))
            guard scanner.atNumber() else { throw InvalidRegion("a position must be [longitude, latitude] numbers") }
            let lat = try scanner.number()
            while try scanner.nextElement(closing: UInt8(ascii: "]")) {
                guard scanner.atNumber() else { throw InvalidRegion("a position must contain only numbers") }
                _ = try scanner.number()
            }
            draft.coordinates.append(lon)
            draft.coordinates.append(lat)
            return 1
        }
        if scanner.consume(UInt8(ascii: "]")) {
            throw InvalidRegion(level == 1 ? "the coordinates array is empty" : "empty array in coordinates")
        }
        var childDepth = 0
        repeat {
            guard scanner.peek() == UInt8(ascii: "[") else {
                throw InvalidRegion("coordinates must be nested arrays of numbers")
            }
            let d = try readCoordinates(into: &draft, level: level + 1)
            if childDepth == 0 { childDepth = d } else if d != childDepth {
                throw InvalidRegion("coordinates are nested unevenly")
            }
        } while try scanner.nextElement(closing: UInt8(ascii: "]"))
        switch childDepth {
        case 1: draft.ringEnds.append(draft.coordinates.count / 2)
        case 2: draft.polygonEnds.append(draft.ringEnds.count)
        default: break
        }
        return childDepth + 1
    }
}
