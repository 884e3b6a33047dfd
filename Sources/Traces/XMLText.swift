/// The little XML that GPX track points need: finding a literal, reading attributes and the text of
/// child elements by local name (`gpxtpx:speed` reads as `speed`). No DTDs, no entities in numbers.
enum XMLText {
    static func find(_ literal: StaticString, in s: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let n = literal.utf8CodeUnitCount
        let first = literal.utf8Start[0]
        var i = from
        while i + n <= s.count {
            if s[i] == first {
                var k = 1
                while k < n && s[i + k] == literal.utf8Start[k] { k += 1 }
                if k == n { return i }
            }
            i += 1
        }
        return nil
    }

    static func trimmed(_ s: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0, end = s.count
        while start < end && s[start] <= UInt8(ascii: " ") { start += 1 }
        while end > start && s[end - 1] <= UInt8(ascii: " ") { end -= 1 }
        return UnsafeBufferPointer(rebasing: s[start..<end])
    }

    /// `name="value"` or `name='value'` pairs of a start tag's remainder.
    static func attributes(_ s: UnsafeBufferPointer<UInt8>,
                           _ attribute: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        var i = 0
        while true {
            while i < s.count && (s[i] <= UInt8(ascii: " ") || s[i] == UInt8(ascii: "/")) { i += 1 }
            let nameStart = i
            while i < s.count && s[i] != UInt8(ascii: "=") && s[i] > UInt8(ascii: " ") { i += 1 }
            let name = UnsafeBufferPointer(rebasing: s[nameStart..<i])
            while i < s.count && s[i] <= UInt8(ascii: " ") { i += 1 }
            guard i < s.count, s[i] == UInt8(ascii: "=") else { return }
            i += 1
            while i < s.count && s[i] <= UInt8(ascii: " ") { i += 1 }
            guard i < s.count, s[i] == UInt8(ascii: "\"") || s[i] == UInt8(ascii: "'") else { return }
            let quote = s[i]
            i += 1
            let valueStart = i
            while i < s.count && s[i] != quote { i += 1 }
            guard i < s.count else { return }
            attribute(name, UnsafeBufferPointer(rebasing: s[valueStart..<i]))
            i += 1
        }
    }

    /// Each start tag's local name and the text up to the next tag.
    static func childElements(_ s: UnsafeBufferPointer<UInt8>,
                              _ element: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        var i = 0
        while let open = find("<", in: s, from: i) {
            var nameEnd = open + 1
            while nameEnd < s.count, case let c = s[nameEnd], c > UInt8(ascii: " "), c != UInt8(ascii: ">"),
                  c != UInt8(ascii: "/") { nameEnd += 1 }
            guard let close = find(">", in: s, from: nameEnd) else { return }
            i = close + 1
            let first = open + 1 < s.count ? s[open + 1] : 0
            guard first != UInt8(ascii: "/"), first != UInt8(ascii: "!"), first != UInt8(ascii: "?"),
                  s[close - 1] != UInt8(ascii: "/") else { continue }
            var localStart = open + 1
            for k in (open + 1)..<nameEnd where s[k] == UInt8(ascii: ":") { localStart = k + 1 }
            let textEnd = find("<", in: s, from: i) ?? s.count
            element(UnsafeBufferPointer(rebasing: s[localStart..<nameEnd]), UnsafeBufferPointer(rebasing: s[i..<textEnd]))
        }
    }
}
