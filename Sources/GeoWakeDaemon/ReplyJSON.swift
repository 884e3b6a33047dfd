import Foundation

/// Replies as JSON text with sorted keys, written directly for the values the daemon itself builds (String, Bool,
/// Int, Int64, UInt32, Double, arrays and objects of them): JSONSerialization's sorting of `AnyHashable` keys was a
/// quarter of the daemon's time under a stream of acks. Anything else (numbers parsed from a request) returns false,
/// and the caller falls back to JSONSerialization.
enum ReplyJSON {
    static func append(_ value: Any, to text: inout String) -> Bool {
        let type = Swift.type(of: value)
        if let string = value as? String, type == String.self {
            appendString(string, to: &text)
        } else if let bool = value as? Bool, type == Bool.self {
            text += bool ? "true" : "false"
        } else if let number = value as? Int, type == Int.self {
            text += String(number)
        } else if let number = value as? Int64, type == Int64.self {
            text += String(number)
        } else if let number = value as? UInt32, type == UInt32.self {
            text += String(number)
        } else if let number = value as? Double, type == Double.self, number.isFinite {
            text += String(number)
        } else if value is NSNull {
            text += "null"
        } else if let array = value as? [Any], type == [Any].self || type == [[String: Any]].self || type == [String].self {
            text += "["
            for (i, element) in array.enumerated() {
                if i > 0 { text += "," }
                guard append(element, to: &text) else { return false }
            }
            text += "]"
        } else if let object = value as? [String: Any], type == [String: Any].self {
            text += "{"
            for (i, key) in object.keys.sorted().enumerated() {
                if i > 0 { text += "," }
                appendString(key, to: &text)
                text += ":"
                guard append(object[key]!, to: &text) else { return false }
            }
            text += "}"
        } else {
            return false
        }
        return true
    }

    private static func appendString(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
