#if canImport(Glibc)
import Glibc
#endif

/// A JSON syntax error at a byte offset of the scanned text.
package struct JSONSyntaxError: Error {
    package var offset: Int
    package var message: String
}

/// A forward-only JSON tokenizer over raw bytes: a reader pulls exactly the values it needs and skips the
/// rest without building any tree, which is what lets a 380 MB GeoJSON file load in about a second. The
/// GeoJSON reader and the line readers of gpsd JSON and beacon traces (`members(of:)`) share it.
package struct JSONScanner {
    package let base: UnsafePointer<UInt8>
    package let count: Int
    package var position = 0
    /// Made on the first string with escapes: most texts (and every gpsd line) have none.
    private var scratch: ScratchBytes?

    package init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!
        count = bytes.count
    }

    package func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: position, message: message)
    }

    /// The next significant byte without consuming it; 0 at the end of the text.
    package mutating func peek() -> UInt8 {
        while position < count {
            let b = base[position]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { position += 1 } else { return b }
        }
        return 0
    }

    package mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        guard peek() == byte else {
            throw error("expected \(Self.describe(byte))" + found())
        }
        position += 1
    }

    /// Consumes `byte` if it is next.
    package mutating func consume(_ byte: UInt8) -> Bool {
        if peek() == byte { position += 1; return true }
        return false
    }

    package func found() -> String {
        position < count ? " but found \(Self.describe(base[position]))" : " but the text ended"
    }

    /// A byte as an error message shows it: printable ASCII quoted, anything else (a control byte, the
    /// first byte of a binary file) by its value, so that no raw control byte reaches a terminal.
    package static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// True when only whitespace is left: RFC 8259 allows nothing else after the document (a NUL included).
    package mutating func atEnd() -> Bool {
        _ = peek()
        return position == count
    }

    /// After an element of an object or array: true when another element follows, false at the closing bracket.
    package mutating func nextElement(closing: UInt8) throws(JSONSyntaxError) -> Bool {
        let b = peek()
        position += 1
        if b == UInt8(ascii: ",") { return true }
        if b == closing { return false }
        position -= 1
        throw error("expected ',' or \(Self.describe(closing))" + found())
    }

    /// Reads a string and returns its bytes: a slice of the text when it has no escapes, else the decoded copy.
    package mutating func string() throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8> {
        try expect(UInt8(ascii: "\""))
        let start = position
        while position < count {
            let b = base[position]
            if b == UInt8(ascii: "\"") {
                position += 1
                return UnsafeBufferPointer(start: base + start, count: position - 1 - start)
            }
            if b == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if b < 0x20 { throw error("control character in string") }
            if b >= 0x80 { position += try utf8SequenceLength(); continue }
            position += 1
        }
        throw error("unterminated string")
    }

    /// The length of the UTF-8 sequence at `position` (RFC 8259: JSON text is UTF-8), checked as
    /// `String(validating:)` would: no overlong forms, no surrogates, nothing beyond U+10FFFF.
    private func utf8SequenceLength() throws(JSONSyntaxError) -> Int {
        let b = base[position]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw error("invalid UTF-8 (byte 0x\(String(b, radix: 16, uppercase: true))) in string")
        }
        guard position + length <= count else { throw error("invalid UTF-8 (truncated sequence) in string") }
        let second = base[position + 1]
        var valid = second >= low && second <= high
        for i in 2..<max(2, length) where base[position + i] & 0xC0 != 0x80 { valid = false }
        guard valid else { throw error("invalid UTF-8 (bad sequence after byte 0x\(String(b, radix: 16, uppercase: true))) in string") }
        return length
    }

    private mutating func escapedString(from start: Int) throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8> {
        let unescaped = scratch ?? ScratchBytes()
        scratch = unescaped
        unescaped.removeAll()
        for i in start..<position { unescaped.append(base[i]) }
        while position < count {
            let b = base[position]
            position += 1
            switch b {
            case UInt8(ascii: "\""):
                return unescaped.buffer
            case UInt8(ascii: "\\"):
                guard position < count else { throw error("unterminated string") }
                let e = base[position]
                position += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(e)
                case UInt8(ascii: "b"): unescaped.append(0x08)
                case UInt8(ascii: "f"): unescaped.append(0x0C)
                case UInt8(ascii: "n"): unescaped.append(0x0A)
                case UInt8(ascii: "r"): unescaped.append(0x0D)
                case UInt8(ascii: "t"): unescaped.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape()
                default: throw error("invalid escape \\ followed by \(Self.describe(e)) in string")
                }
            default:
                if b < 0x20 { throw error("control character in string") }
                if b >= 0x80 {
                    position -= 1
                    let length = try utf8SequenceLength()
                    for i in 0..<length { unescaped.append(base[position + i]) }
                    position += length
                    continue
                }
                unescaped.append(b)
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= count else { throw error("unterminated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = base[position]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | UInt32(d)
            position += 1
        }
        return v
    }

    /// Decodes `\uXXXX`, joining a UTF-16 surrogate pair, into UTF-8.
    private mutating func appendUnicodeEscape() throws(JSONSyntaxError) {
        let unescaped = scratch!
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard position + 6 <= count, base[position] == UInt8(ascii: "\\"), base[position + 1] == UInt8(ascii: "u") else {
                throw error("unpaired UTF-16 surrogate in \\u escape")
            }
            position += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw error("unpaired UTF-16 surrogate in \\u escape")
        }
        for byte in Unicode.UTF8.encode(Unicode.Scalar(scalar)!)! { unescaped.append(byte) }
    }

    /// True when the next value is a number (or one of the non-JSON literals NaN and Infinity that
    /// Python's json module writes, accepted here so that validation can name them).
    package mutating func atNumber() -> Bool {
        let b = peek()
        return b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || b == UInt8(ascii: "N") || b == UInt8(ascii: "I")
    }

    package mutating func number() throws(JSONSyntaxError) -> Double {
        _ = peek()
        let start = position
        var negative = false
        if position < count, base[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        if position < count, base[position] > UInt8(ascii: "9") {
            if matchLiteral("NaN") { return .nan }
            if matchLiteral("Infinity") { return negative ? -.infinity : .infinity }
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        let integerStart = position
        while position < count, case let d = base[position] &- UInt8(ascii: "0"), d < 10 {
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(d); if mantissa != 0 { digits += 1 } } else { exponent += 1 }
            position += 1
        }
        let integerDigits = position - integerStart
        guard integerDigits > 0 else { throw error("invalid number") }
        if integerDigits > 1 && base[integerStart] == UInt8(ascii: "0") { throw error("invalid number (leading zero)") }
        if position < count, base[position] == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            while position < count, case let d = base[position] &- UInt8(ascii: "0"), d < 10 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                }
                position += 1
            }
            guard position > fractionStart else { throw error("invalid number (no digits after '.')") }
        }
        let exactMantissa = digits < 19 || !hasMoreDigits(from: start)
        if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            var expNegative = false
            if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
                expNegative = base[position] == UInt8(ascii: "-")
                position += 1
            }
            var e = 0
            let expStart = position
            while position < count, case let d = base[position] &- UInt8(ascii: "0"), d < 10 {
                if e < 100_000 { e = e * 10 + Int(d) }
                position += 1
            }
            guard position > expStart else { throw error("invalid number (empty exponent)") }
            exponent += expNegative ? -e : e
        }
        // Clinger's fast path: an exact integer mantissa and an exact power of ten give the correctly
        // rounded double in one IEEE operation; then Eisel-Lemire; what neither can decide goes to strtod.
        if exactMantissa && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            let m = Double(mantissa)
            let value = exponent < 0 ? m / Self.powersOfTen[-exponent] : m * Self.powersOfTen[exponent]
            return negative ? -value : value
        }
        if exactMantissa, let value = EiselLemire.double(mantissa: mantissa, exponent: exponent, negative: negative) { return value }
        return slowNumber(from: start)
    }

    /// Whether the digits beyond the 19 kept include any non-zero one (then the mantissa is not exact).
    private func hasMoreDigits(from start: Int) -> Bool {
        var significant = 0
        var i = start
        while i < position {
            let c = base[i]
            if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") || (c == UInt8(ascii: "0") && significant > 0) {
                significant += 1
                if significant > 19 && c != UInt8(ascii: "0") { return true }
            }
            i += 1
        }
        return false
    }

    /// strtod on a copy of the number's text, on the stack (an array per number was a heap allocation each).
    private func slowNumber(from start: Int) -> Double {
        let length = position - start
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text in
            for i in 0..<length { text[i] = CChar(bitPattern: base[start + i]) }
            text[length] = 0
            return strtod(text.baseAddress!, nil)
        }
    }

    private static let powersOfTen: [Double] = (0...22).map { e in (0..<e).reduce(1.0) { acc, _ in acc * 10 } }

    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard position + n <= count, memcmp(base + position, literal.utf8Start, n) == 0 else { return false }
        position += n
        return true
    }

    /// Reads `true` or `false`.
    package mutating func bool() throws(JSONSyntaxError) -> Bool {
        _ = peek()
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw error("expected true or false" + found())
    }

    /// Consumes `null` if it is next.
    package mutating func null() -> Bool {
        _ = peek()
        return matchLiteral("null")
    }

    /// Deepest nesting of arrays and objects accepted; deeper text is an error rather than a stack overflow
    /// (GeoJSON needs 6 levels; 512 is what Python's and Go's decoders allow without trouble).
    package static let maximumDepth = 512

    /// The error of a value nested deeper than `maximumDepth`, the same from every reader.
    package func tooDeep() -> JSONSyntaxError { error(Self.tooDeepMessage) }

    package static let tooDeepMessage = "arrays and objects nested more than \(maximumDepth) deep"

    /// Skips one value of any kind, checking its syntax. `depth` is the nesting the value sits in.
    package mutating func skipValue(depth: Int = 1) throws(JSONSyntaxError) {
        switch peek() {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw tooDeep() }
            position += 1
            if consume(UInt8(ascii: "}")) { return }
            repeat {
                _ = try string()
                try expect(UInt8(ascii: ":"))
                try skipValue(depth: depth + 1)
            } while try nextElement(closing: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw tooDeep() }
            position += 1
            if consume(UInt8(ascii: "]")) { return }
            repeat { try skipValue(depth: depth + 1) } while try nextElement(closing: UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try bool()
        case UInt8(ascii: "n"):
            if !null() { throw error("invalid literal") }
        default:
            guard atNumber() else { throw error("expected a value" + found()) }
            _ = try number()
        }
    }

    /// Line and column (1-based) of a byte offset, for error messages.
    package func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for i in 0..<min(offset, count) where base[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }
}
