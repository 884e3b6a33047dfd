import JSONText

extension JSONValue {
    /// Why a text is not one JSON value: the byte offset and what was wrong there.
    public struct SyntaxError: Error, Equatable, Sendable {
        public var offset: Int
        public var message: String
    }

    /// One JSON value that is the whole of `text`, read straight into values with the JSONText scanner: through
    /// `JSONSerialization` and casts of its Foundation objects, each event took about 0.4 ms of CPU on its way to
    /// the handler. Arrays and objects nest at most 512 deep (docs/protocol.md, "Limits").
    public init(parsing text: UnsafeRawBufferPointer) throws(SyntaxError) {
        var scanner = JSONScanner(text)
        do throws(JSONSyntaxError) {
            self = try JSONValue(&scanner, depth: 1)
            guard scanner.atEnd() else { throw scanner.error("text after the value") }
        } catch {
            throw SyntaxError(offset: error.offset, message: error.message)
        }
    }

    /// The JSON value that is the whole of `text` (a stored one, say).
    public init(parsing text: String) throws(SyntaxError) {
        var text = text
        let parsed = text.withUTF8 { bytes in
            Result { () throws(SyntaxError) in try JSONValue(parsing: UnsafeRawBufferPointer(bytes)) }
        }
        self = try parsed.get()
    }

    /// The value at the scanner, `depth` counting the arrays and objects it sits in, itself included.
    package init(_ scanner: inout JSONScanner, depth: Int) throws(JSONSyntaxError) {
        guard depth <= JSONScanner.maximumDepth else { throw scanner.tooDeep() }
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
