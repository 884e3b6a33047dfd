import GeoWakeProtocol
import JSONText

/// A request line read once into values, keeping where two members' values lie in the line: the `id`, which the
/// reply echoes as it was sent, and `features`, whose texts `monitor` stores as they were sent.
struct RequestLine {
    var fields: [String: JSONValue] = [:]
    var id = RequestID.null
    private var features: Range<Int>?

    /// Nil when the line is not one JSON object (nested at most 512 deep, the object included).
    init?(_ line: ArraySlice<UInt8>) {
        let parsed: Bool = line.withUnsafeBytes { bytes in
            var scanner = JSONScanner(bytes)
            do throws(JSONSyntaxError) {
                try scanner.expect(UInt8(ascii: "{"))
                if !scanner.consume(UInt8(ascii: "}")) {
                    repeat {
                        let key = String(decoding: try scanner.string(), as: UTF8.self)
                        try scanner.expect(UInt8(ascii: ":"))
                        _ = scanner.peek()
                        let start = scanner.position
                        let value = try JSONValue(&scanner, depth: 2)
                        fields[key] = value
                        if key == "id" {
                            id = RequestID(value, text: UnsafeRawBufferPointer(rebasing: bytes[start..<scanner.position]))
                        } else if key == "features" {
                            features = start..<scanner.position
                        }
                    } while try scanner.nextElement(closing: UInt8(ascii: "}"))
                }
                return scanner.atEnd()
            } catch {
                return false
            }
        }
        guard parsed else { return nil }
    }

    /// The texts of the features in `features` (an array of them or a FeatureCollection), cut from `line`.
    func featureTexts(_ line: ArraySlice<UInt8>) -> [String]? {
        guard let features else { return nil }
        return line.withUnsafeBytes { bytes in FeatureTexts.ofValue(UnsafeRawBufferPointer(rebasing: bytes[features])) }
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
