import JSONLines

extension JSONValue {
    /// Compact JSON, keys sorted so that logs and tests read the same each time. Whole numbers below 10^15 are
    /// written without a fraction (sequence numbers, ids); a number that is not finite is written as `null`.
    public var line: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        write(to: &bytes)
        return bytes
    }

    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += "null".utf8
        case .bool(let value): bytes += (value ? "true" : "false").utf8
        case .number(let value):
            if !value.isFinite {
                bytes += "null".utf8
            } else if value == value.rounded() && abs(value) < 1e15 {
                bytes += Int64(value).description.utf8
            } else {
                bytes += value.description.utf8
            }
        case .string(let value): Self.write(value, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            bytes.append(UInt8(ascii: "{"))
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                fields[key]!.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func write(_ string: String, to bytes: inout [UInt8]) {
        JSONLineWriter.appendString(string.utf8, to: &bytes)
    }
}
