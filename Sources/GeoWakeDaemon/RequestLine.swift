import GeoWakeProtocol
import JSONText

/// A request line read once into values, keeping where two members' values lie in the line: the `id`, which the
/// reply echoes as it was sent, and `features`, whose texts `monitor` stores as they were sent. In `features` every
/// `coordinates` value is checked as any value is but kept as null, and every `geometry` object as an empty one (a
/// beacon region's check needs only to tell it from null): the region loader reads the shapes from the texts, and a
/// value per coordinate, made and freed, was a fifth of registering regions.
struct RequestLine {
    var fields: [String: JSONValue] = [:]
    var id = RequestID.null
    /// Where each feature of `features` lies in the line, as its value was read.
    private var features: [Range<Int>]?

    /// The line read, or the error that makes it no request: not one JSON object (nested at most 512 deep, the
    /// object included). `failure` words the error for the reply.
    static func read(_ line: ArraySlice<UInt8>) -> Result<RequestLine, JSONSyntaxError> {
        var request = RequestLine()
        do {
            try request.read(line)
            return .success(request)
        } catch {
            return .failure(error)
        }
    }

    /// Why a line is not a request: not one JSON object, or one nested too deeply.
    static func failure(_ error: JSONSyntaxError) -> String {
        error.message == JSONScanner.tooDeepMessage ? "the line's " + JSONScanner.tooDeepMessage : "the line is not a JSON object"
    }

    private init() {}

    private mutating func read(_ line: ArraySlice<UInt8>) throws(JSONSyntaxError) {
        let parsed: JSONSyntaxError? = line.withUnsafeBytes { bytes in
            var scanner = JSONScanner(bytes)
            do throws(JSONSyntaxError) {
                try scanner.expect(UInt8(ascii: "{"))
                if !scanner.consume(UInt8(ascii: "}")) {
                    repeat {
                        let key = String(decoding: try scanner.string(), as: UTF8.self)
                        try scanner.expect(UInt8(ascii: ":"))
                        _ = scanner.peek()
                        let start = scanner.position
                        let value = key == "features" ? try Self.features(&scanner, depth: 2, at: &features) : try JSONValue(&scanner, depth: 2)
                        fields[key] = value
                        if key == "id" {
                            id = RequestID(value, text: UnsafeRawBufferPointer(rebasing: bytes[start..<scanner.position]))
                        }
                    } while try scanner.nextElement(closing: UInt8(ascii: "}"))
                }
                return scanner.atEnd() ? nil : scanner.error("more after the object")
            } catch {
                return error
            }
        }
        if let parsed { throw parsed }
    }

    /// A `features` value as `withoutCoordinates` reads it, with the place of each feature when it is an array of
    /// them or an object (a FeatureCollection) whose last `features` member is one; nil places for anything else.
    /// The texts are thus cut as the line is read, not found by reading the features a second time.
    private static func features(_ scanner: inout JSONScanner, depth: Int, at places: inout [Range<Int>]?) throws(JSONSyntaxError) -> JSONValue {
        places = nil
        switch scanner.peek() {
        case UInt8(ascii: "["):
            return try elements(&scanner, depth: depth, at: &places)
        case UInt8(ascii: "{"):
            guard depth <= JSONScanner.maximumDepth else { throw scanner.tooDeep() }
            scanner.position += 1
            var fields: [String: JSONValue] = [:]
            if !scanner.consume(UInt8(ascii: "}")) {
                repeat {
                    let name = String(decoding: try scanner.string(), as: UTF8.self)
                    try scanner.expect(UInt8(ascii: ":"))
                    if name == "features" {
                        places = nil
                        fields[name] = scanner.peek() == UInt8(ascii: "[")
                            ? try elements(&scanner, depth: depth + 1, at: &places) : try withoutCoordinates(&scanner, depth: depth + 1)
                    } else {
                        fields[name] = try withoutCoordinates(&scanner, depth: depth + 1)
                    }
                } while try scanner.nextElement(closing: UInt8(ascii: "}"))
            }
            return .object(fields)
        default:
            return try withoutCoordinates(&scanner, depth: depth)
        }
    }

    /// An array as `withoutCoordinates` reads it, with the place of each element.
    private static func elements(_ scanner: inout JSONScanner, depth: Int, at places: inout [Range<Int>]?) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONScanner.maximumDepth else { throw scanner.tooDeep() }
        scanner.position += 1
        var elements: [JSONValue] = [], ranges: [Range<Int>] = []
        if !scanner.consume(UInt8(ascii: "]")) {
            repeat {
                _ = scanner.peek()
                let start = scanner.position
                elements.append(try withoutCoordinates(&scanner, depth: depth + 1))
                ranges.append(start..<scanner.position)
            } while try scanner.nextElement(closing: UInt8(ascii: "]"))
        }
        places = ranges
        return .array(elements)
    }

    /// The value at the scanner as `JSONValue(_:depth:)` reads it, each `coordinates` member's value null and each
    /// `geometry` member's object empty.
    private static func withoutCoordinates(_ scanner: inout JSONScanner, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            guard depth <= JSONScanner.maximumDepth else { throw scanner.tooDeep() }
            scanner.position += 1
            var fields: [String: JSONValue] = [:]
            if !scanner.consume(UInt8(ascii: "}")) {
                // Room for a feature's four members (type, id, properties, geometry) at once: grown member by member,
                // its storage was allocated anew and rehashed as it grew.
                fields.reserveCapacity(4)
                repeat {
                    let key = try scanner.string()
                    let isCoordinates = key.equals("coordinates"), isGeometry = key.equals("geometry")
                    let name = String(decoding: key, as: UTF8.self)
                    try scanner.expect(UInt8(ascii: ":"))
                    if isCoordinates {
                        try checkValue(&scanner, depth: depth + 1)
                        fields[name] = .null
                    } else if isGeometry && scanner.peek() == UInt8(ascii: "{") {
                        try checkValue(&scanner, depth: depth + 1)
                        fields[name] = .object([:])
                    } else {
                        fields[name] = try withoutCoordinates(&scanner, depth: depth + 1)
                    }
                } while try scanner.nextElement(closing: UInt8(ascii: "}"))
            }
            return .object(fields)
        case UInt8(ascii: "["):
            guard depth <= JSONScanner.maximumDepth else { throw scanner.tooDeep() }
            scanner.position += 1
            var elements: [JSONValue] = []
            if !scanner.consume(UInt8(ascii: "]")) {
                repeat {
                    elements.append(try withoutCoordinates(&scanner, depth: depth + 1))
                } while try scanner.nextElement(closing: UInt8(ascii: "]"))
            }
            return .array(elements)
        default:
            return try JSONValue(&scanner, depth: depth)
        }
    }

    /// Reads past the value at the scanner, refusing what `JSONValue(_:depth:)` refuses, and keeps nothing.
    private static func checkValue(_ scanner: inout JSONScanner, depth: Int) throws(JSONSyntaxError) {
        guard depth <= JSONScanner.maximumDepth else { throw scanner.tooDeep() }
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            scanner.position += 1
            if scanner.consume(UInt8(ascii: "}")) { return }
            repeat {
                _ = try scanner.string()
                try scanner.expect(UInt8(ascii: ":"))
                try checkValue(&scanner, depth: depth + 1)
            } while try scanner.nextElement(closing: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            scanner.position += 1
            if scanner.consume(UInt8(ascii: "]")) { return }
            repeat {
                try checkValue(&scanner, depth: depth + 1)
            } while try scanner.nextElement(closing: UInt8(ascii: "]"))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "N"), UInt8(ascii: "I"):
            guard try scanner.number().isFinite else { throw scanner.error("number out of range") }
        default:
            _ = try JSONValue(&scanner, depth: depth)
        }
    }

    /// The texts of the features in `features` (an array of them or a FeatureCollection), cut from `line`.
    func featureTexts(_ line: ArraySlice<UInt8>) -> [String]? {
        guard let features else { return nil }
        return line.withUnsafeBytes { bytes in features.map { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[$0]), as: UTF8.self) } }
    }
}

/// A request's `id` as the client wrote it (a JSON number or string), echoed in the reply byte for byte; any other
/// value, or none, is answered with `id` null.
struct RequestID {
    let text: [UInt8]

    static let null = RequestID(text: Array("null".utf8))

    private init(text: [UInt8]) { self.text = text }

    init(_ value: JSONValue, text: UnsafeRawBufferPointer) {
        switch value {
        case .number, .string: self.text = Array(text)
        default: self = .null
        }
    }
}
