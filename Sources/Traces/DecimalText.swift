#if canImport(Glibc)
import Glibc
#endif

/// Numbers in the text formats (JSON, XML attributes), which may use exponents.
enum DecimalText {
    /// A finite number that is exactly the whole of `text` (surrounding spaces allowed), else nil.
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var start = 0, end = text.count
        while start < end && text[start] <= UInt8(ascii: " ") { start += 1 }
        while end > start && text[end - 1] <= UInt8(ascii: " ") { end -= 1 }
        let count = end - start
        guard count > 0, count < 32 else { return nil }
        // strtod needs a NUL terminator, and must not see a leading space or a hex or "inf" form.
        for k in start..<end {
            let c = text[k]
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                    || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") else { return nil }
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { copy -> Double? in
            for k in 0..<count { copy[k] = CChar(bitPattern: text[start + k]) }
            copy[count] = 0
            var parsedEnd: UnsafeMutablePointer<CChar>?
            let value = strtod(copy.baseAddress!, &parsedEnd)
            guard parsedEnd == copy.baseAddress! + count, value.isFinite else { return nil }
            return value
        }
    }
}
