import JSONText

extension JSONValue {
    /// One line of the protocol: a JSON object without a newline. Read straight into values: through
    /// `JSONSerialization` and casts of its Foundation objects, each event took about 0.4 ms of CPU on its way
    /// to the handler.
    public init(line: [UInt8]) throws(GeoWakeError) {
        do {
            self = try line.withUnsafeBytes { bytes in
                var scanner = JSONScanner(bytes)
                let value = try JSONValue(&scanner, depth: 1)
                guard scanner.atEnd() else { throw scanner.error("text after the value") }
                return value
            }
        } catch {
            throw .malformedReply(String(decoding: line.prefix(200), as: UTF8.self))
        }
    }

    private init(_ scanner: inout JSONScanner, depth: Int) throws(JSONSyntaxError) {
        guard depth <= JSONScanner.maximumDepth else { throw scanner.error("nested too deeply") }
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            scanner.position += 1
            var fields: [String: JSONValue] = [:]
            if !scanner.consume(UInt8(ascii: "}")) {
                repeat {
                    let key = String(decoding: try scanner.string(), as: UTF8.self)
                    try scanner.expect(UInt8(ascii: ":"))
                    fields[key] = try JSONValue(&scanner, depth: depth + 1)
                } while try scanner.nextElement(closing: UInt8(ascii: "}"))
            }
            self = .object(fields)
        case UInt8(ascii: "["):
            scanner.position += 1
            var elements: [JSONValue] = []
            if !scanner.consume(UInt8(ascii: "]")) {
                repeat {
                    elements.append(try JSONValue(&scanner, depth: depth + 1))
                } while try scanner.nextElement(closing: UInt8(ascii: "]"))
            }
            self = .array(elements)
        case UInt8(ascii: "\""):
            self = .string(String(decoding: try scanner.string(), as: UTF8.self))
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            self = .bool(try scanner.bool())
        case UInt8(ascii: "n"):
            guard scanner.null() else { throw scanner.error("invalid literal") }
            self = .null
        default:
            // The scanner also reads NaN and Infinity, which JSON does not have.
            let number = try scanner.number()
            guard number.isFinite else { throw scanner.error("number out of range") }
            self = .number(number)
        }
    }
}
