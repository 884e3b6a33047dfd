#if canImport(Glibc)
import Glibc
#endif

extension UnsafeBufferPointer<UInt8> {
    /// Byte-wise equality with an ASCII literal.
    package func equals(_ literal: StaticString) -> Bool {
        count == literal.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, literal.utf8Start, count) == 0)
    }
}
