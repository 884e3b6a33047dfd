#if canImport(Glibc)
import Glibc
#endif

extension String {
    /// Compares the UTF-8 bytes (a prefix first): the order of `utf8.lexicographicallyPrecedes`, which the
    /// monitor's events and snapshots are sorted by, with one `memcmp` instead of a generic walk over two
    /// views (that walk was 1.4% of a fleet worker's samples). Negative, zero or positive.
    static func compareUTF8(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = Swift.min(x.count, y.count)
                if common > 0 {
                    let order = memcmp(x.baseAddress!, y.baseAddress!, common)
                    if order != 0 { return Int(order) }
                }
                return x.count - y.count
            }
        }
    }
}
