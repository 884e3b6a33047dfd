/// The text a group of fields was last decoded from, and the result. The sentences of one epoch
/// repeat the same time and position text (GGA, RMC, GLL, GNS), so each is decoded once per epoch.
struct NMEAFieldMemo<Value: Sendable>: Sendable {
    static var capacity: Int { 48 }
    private var text: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    private var count = -1
    private(set) var value: Value?

    /// Whether the fields starting at `start` (and ending at a comma or the body end) are the remembered text.
    /// Mutating only to read `text` in place: the non-mutating form copied all of it to the stack first.
    @inline(__always) mutating func matches(_ start: UnsafePointer<UInt8>, available: Int) -> Int? {
        guard count >= 0, count <= available else { return nil }
        guard count == available || start[count] == UInt8(ascii: ",") else { return nil }
        // Word by word: these are a few dozen bytes, too short for a memcmp call to pay off.
        let equal = withUnsafeBytes(of: &text) { remembered -> Bool in
            let candidate = UnsafeRawPointer(start)
            var i = 0
            while i + 8 <= count {
                guard remembered.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        == candidate.loadUnaligned(fromByteOffset: i, as: UInt64.self) else { return false }
                i += 8
            }
            while i < count {
                guard remembered[i] == start[i] else { return false }
                i += 1
            }
            return true
        }
        return equal ? count : nil
    }

    mutating func remember(_ start: UnsafePointer<UInt8>, count: Int, _ value: Value) {
        guard count <= NMEAFieldMemo.capacity else { return }
        withUnsafeMutableBytes(of: &text) { $0.baseAddress!.copyMemory(from: start, byteCount: count) }
        self.count = count
        self.value = value
    }
}
