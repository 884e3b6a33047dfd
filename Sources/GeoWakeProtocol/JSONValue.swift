/// A protocol message's content as a plain value, so requests and server messages cross actors and
/// threads as Sendable data and any request the protocol gains can be sent without a new type here.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any JSON number; integers up to 2^53 are exact.
    case number(Double)
    /// A string, escapes decoded.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; the order of its keys is not kept.
    case object([String: JSONValue])

    /// An object's member named `key`; nil when absent or when this is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// The string, when this is one.
    public var string: String? { if case .string(let s) = self { s } else { nil } }
    /// The number, when this is one.
    public var double: Double? { if case .number(let n) = self { n } else { nil } }
    /// The number rounded to an `Int`, when this is a number that fits.
    public var int: Int? { double.flatMap { Int(exactly: $0.rounded()) } }
    /// The number rounded to an `Int64`, when this is a number that fits (sequence numbers, epochs).
    public var int64: Int64? { double.flatMap { Int64(exactly: $0.rounded()) } }
    /// The boolean, when this is one.
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The elements, when this is an array.
    public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The members, when this is an object.
    public var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }

    /// An integer as a number: exact up to 2^53, far beyond any count, sequence number or pid.
    public static func integer(_ value: some BinaryInteger) -> JSONValue { .number(Double(value)) }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    /// `"text"` as `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `42` as `.number`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// `4.2` as `.number`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `true` as `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `["key": value]` as `.object`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// `[a, b]` as `.array`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}
