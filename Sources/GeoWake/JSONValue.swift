import Foundation

/// A protocol message's content as a plain value, so requests and server messages cross actors and
/// threads as Sendable data and any request the protocol gains can be sent without a new type here.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var double: Double? { if case .number(let n) = self { n } else { nil } }
    public var int: Int? { double.flatMap { Int(exactly: $0.rounded()) } }
    public var int64: Int64? { double.flatMap { Int64(exactly: $0.rounded()) } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }

    /// One line of the protocol: a JSON object without a newline.
    public init(line: [UInt8]) throws(GeoWakeError) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed])
        } catch {
            throw .malformedReply(String(decoding: line.prefix(200), as: UTF8.self))
        }
        self = JSONValue(foundation: parsed)
    }

    init(foundation value: Any) {
        switch value {
        case let n as NSNumber:
            // JSONSerialization gives booleans as NSNumber too; only they have the `char` type code.
            if String(cString: n.objCType) == "c" { self = .bool(n.boolValue) } else { self = .number(n.doubleValue) }
        case let s as String: self = .string(s)
        case let a as [Any]: self = .array(a.map(JSONValue.init(foundation:)))
        case let o as [String: Any]: self = .object(o.mapValues(JSONValue.init(foundation:)))
        default: self = .null
        }
    }

    var foundation: Any {
        switch self {
        case .null: NSNull()
        case .bool(let b): b
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? Int64(n) as Any : n as Any
        case .string(let s): s
        case .array(let a): a.map(\.foundation)
        case .object(let o): o.mapValues(\.foundation)
        }
    }

    /// Compact JSON, keys sorted so that logs and tests read the same each time.
    public var line: [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: foundation,
                                                options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])) ?? Data("null".utf8)
        return Array(data)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}
