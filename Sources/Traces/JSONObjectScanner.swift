/// Walks the members of one flat JSON object (one gpsd JSON line) without building a tree: values
/// that are objects or arrays are validated and skipped, strings are handed over undecoded.
struct JSONObjectScanner {
    enum Value {
        case string(UnsafeBufferPointer<UInt8>)
        case number(Double)
        case other
    }

    private let s: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(_ s: UnsafeBufferPointer<UInt8>) {
        self.s = s
    }

    /// Calls `member` for each top-level key and value; false when the line is not one JSON object.
    static func members(of line: UnsafeBufferPointer<UInt8>,
                        _ member: (UnsafeBufferPointer<UInt8>, Value) -> Void) -> Bool {
        var scanner = JSONObjectScanner(line)
        return scanner.object(member)
    }

    private mutating func object(_ member: (UnsafeBufferPointer<UInt8>, Value) -> Void) -> Bool {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return false }
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipSpace()
                guard let key = string() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard let value = value() else { return false }
                member(key, value)
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return false }
        }
        skipSpace()
        return i == s.count
    }

    private mutating func value() -> Value? {
        guard i < s.count else { return nil }
        switch s[i] {
        case UInt8(ascii: "\""):
            return string().map { .string($0) }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return skipNested() ? .other : nil
        case UInt8(ascii: "t"): return literal("true") ? .other : nil
        case UInt8(ascii: "f"): return literal("false") ? .other : nil
        case UInt8(ascii: "n"): return literal("null") ? .other : nil
        default: return number().map { .number($0) }
        }
    }

    private mutating func string() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        while i < s.count {
            switch s[i] {
            case UInt8(ascii: "\""):
                defer { i += 1 }
                return UnsafeBufferPointer(rebasing: s[start..<i])
            case UInt8(ascii: "\\"): i += 2
            case 0..<0x20: return nil
            default: i += 1
            }
        }
        return nil
    }

    private mutating func number() -> Double? {
        let start = i
        while i < s.count, case let c = s[i],
              (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            i += 1
        }
        return DecimalText.double(UnsafeBufferPointer(rebasing: s[start..<i]))
    }

    private mutating func skipNested() -> Bool {
        var depth = 0
        while i < s.count {
            switch s[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                i += 1
                if depth == 0 { return true }
            case UInt8(ascii: "\""): guard string() != nil else { return false }
            default: i += 1
            }
        }
        return false
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= s.count else { return false }
        for k in 0..<n where s[i + k] != word.utf8Start[k] { return false }
        i += n
        return true
    }

    private mutating func take(_ c: UInt8) -> Bool {
        guard i < s.count, s[i] == c else { return false }
        i += 1
        return true
    }

    private mutating func skipSpace() {
        while i < s.count, s[i] == 0x20 || s[i] == 0x09 || s[i] == 0x0D || s[i] == 0x0A { i += 1 }
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Byte-wise equality with an ASCII literal.
    func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        for k in 0..<count where self[k] != literal.utf8Start[k] { return false }
        return true
    }
}
