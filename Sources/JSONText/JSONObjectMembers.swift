/// A member's value in a flat JSON object line, as the line readers (gpsd JSON, beacon traces) take it.
package enum JSONMemberValue {
    case string(UnsafeBufferPointer<UInt8>)
    case number(Double)
    /// true, false, null, or an object or array: checked, and handed over as its text (`elements(of:)` reads an
    /// array's, `members(of:)` an object's).
    case other(UnsafeBufferPointer<UInt8>)
}

extension JSONScanner {
    /// Calls `member` for each top-level key and value of the one JSON object that is the whole of `line`;
    /// false when the line is not that (members before the fault have been handed over). Strings come
    /// decoded, valid during the call only. NaN and infinities are not JSON, so a line holding one is not.
    package static func members(of line: UnsafeBufferPointer<UInt8>,
                                _ member: (UnsafeBufferPointer<UInt8>, JSONMemberValue) -> Void) -> Bool {
        var scanner = JSONScanner(UnsafeRawBufferPointer(line))
        do throws(JSONSyntaxError) {
            return try scanner.members(member)
        } catch {
            return false
        }
    }

    private mutating func members(_ member: (UnsafeBufferPointer<UInt8>, JSONMemberValue) -> Void) throws(JSONSyntaxError) -> Bool {
        try expect(UInt8(ascii: "{"))
        if consume(UInt8(ascii: "}")) { return atEnd() }
        repeat {
            let key = try string()
            // A key with escapes is decoded into the scratch buffer, which a string value with escapes overwrites.
            let copiedKey = isInText(key) ? nil : Array(key)
            try expect(UInt8(ascii: ":"))
            let value: JSONMemberValue
            switch peek() {
            case UInt8(ascii: "\""):
                value = .string(try string())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let number = try number()
                guard number.isFinite else { return false }
                value = .number(number)
            case UInt8(ascii: "N"), UInt8(ascii: "I"):
                return false
            default:
                let start = position
                try skipValue()
                value = .other(UnsafeBufferPointer(start: base + start, count: position - start))
            }
            if let copiedKey {
                copiedKey.withUnsafeBufferPointer { member($0, value) }
            } else {
                member(key, value)
            }
        } while try nextElement(closing: UInt8(ascii: "}"))
        return atEnd()
    }

    /// Calls `element` with the text of each element of the one JSON array that is the whole of `text`; false when
    /// `text` is not that.
    package static func elements(of text: UnsafeBufferPointer<UInt8>, _ element: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        var scanner = JSONScanner(UnsafeRawBufferPointer(text))
        do throws(JSONSyntaxError) {
            try scanner.expect(UInt8(ascii: "["))
            if scanner.consume(UInt8(ascii: "]")) { return scanner.atEnd() }
            repeat {
                _ = scanner.peek()
                let start = scanner.position
                try scanner.skipValue()
                element(UnsafeBufferPointer(start: scanner.base + start, count: scanner.position - start))
            } while try scanner.nextElement(closing: UInt8(ascii: "]"))
            return scanner.atEnd()
        } catch {
            return false
        }
    }

    private func isInText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        return start >= base && start < base + count
    }
}
