extension UnsafeBufferPointer<UInt8> {
    /// Byte-wise equality with an ASCII literal, compared inline: the literals are keys of a few bytes, and a call to
    /// `memcmp` for three or four of them was a tenth of a fleet worker's payload reading.
    @inline(__always)
    package func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        guard let base = baseAddress else { return true }
        let bytes = literal.utf8Start
        for i in 0..<count where base[i] != bytes[i] { return false }
        return true
    }
}
