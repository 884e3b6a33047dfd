/// The decoded bytes of the last string that had escapes, in memory the scanner owns: `string()` hands
/// out a buffer pointer either way, valid until the next string is read.
package final class ScratchBytes {
    private var base = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
    private var capacity = 64
    private var count = 0

    package init() {}

    deinit { base.deallocate() }

    package var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    package func removeAll() { count = 0 }

    package func append(_ byte: UInt8) {
        if count == capacity {
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * capacity)
            larger.initialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }
        base[count] = byte
        count += 1
    }
}
