/// Reading a request's fields as the protocol types them: a wrong type names its field in a `badRequest`.
extension [String: JSONValue] {
    /// The field, nil when absent or null: a field given as null takes its default.
    package func given(_ key: String) -> JSONValue? {
        guard let value = self[key], value != .null else { return nil }
        return value
    }

    /// A number field, nil when absent or null; anything else (a boolean included) names the field.
    package func number(_ key: String, _ expected: String = "a finite number") throws(RequestError) -> Double? {
        guard let value = given(key) else { return nil }
        guard case .number(let number) = value, number.isFinite else { throw .badRequest("\"\(key)\" must be \(expected)") }
        return number
    }

    /// A whole number below 9×10^15, so exact as the double it was read as; not a boolean, not absent.
    package func integer(_ key: String) throws(RequestError) -> Int64 {
        guard case .number(let number) = self[key], number.rounded() == number, abs(number) < 9e15 else {
            throw .badRequest("\"\(key)\" must be an integer")
        }
        return Int64(number)
    }

    /// A boolean field, nil when absent or null.
    package func flag(_ key: String) throws(RequestError) -> Bool? {
        guard let value = given(key) else { return nil }
        guard case .bool(let flag) = value else { throw .badRequest("\"\(key)\" must be true or false") }
        return flag
    }
}
