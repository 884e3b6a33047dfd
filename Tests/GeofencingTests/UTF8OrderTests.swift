import Testing
@testable import Geofencing

/// `String.compareUTF8` must order ids exactly as `utf8.lexicographicallyPrecedes` did (events and snapshots
/// are sorted by it, and replay's output must not change), whatever the strings' storage.
@Suite struct UTF8OrderTests {
    static let ids = ["", "a", "ab", "b", "r002284", "r002285", "r0022840", "A", "é", "e\u{301}", "ß", "€uro",
                      "a region id well past fifteen bytes, stored out of line", "a region id well past fifteen bytes",
                      "\u{10FFFF}", "z\u{0}"]

    @Test func ordersAsTheUTF8BytesDo() {
        for a in Self.ids {
            for b in Self.ids {
                let precedes = a.utf8.lexicographicallyPrecedes(b.utf8)
                let follows = b.utf8.lexicographicallyPrecedes(a.utf8)
                let order = String.compareUTF8(a, b)
                #expect((order < 0) == precedes && (order > 0) == follows, "\(a.debugDescription) vs \(b.debugDescription)")
            }
        }
    }

    @Test func ordersBridgedSubstringsAsTheirBytes() {
        let long = String(repeating: "region ", count: 10)
        let a = String(long.dropFirst(7)), b = String(long.dropLast(7))
        #expect((String.compareUTF8(a, b) < 0) == a.utf8.lexicographicallyPrecedes(b.utf8))
    }
}
