/// An array whose storage starts on a cache-line boundary, so that records of 32 or 64 bytes each sit in
/// one line: a point query reads one line per candidate instead of two. (`Array` puts its elements
/// after a 32-byte header, so 64-byte records in it always straddle two lines.) Copy on write, like `Array`.
struct CacheLineArray<Element: BitwiseCopyable>: @unchecked Sendable {
    static var lineSize: Int { 64 }

    private final class Storage {
        let elements: UnsafeMutablePointer<Element>
        var count = 0
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            let bytes = max(1, capacity) * MemoryLayout<Element>.stride
            let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: CacheLineArray.lineSize)
            adviseHugePages(raw, byteCount: bytes)
            elements = raw.bindMemory(to: Element.self, capacity: capacity)
        }

        deinit { elements.deallocate() }

        func copy(capacity: Int) -> Storage {
            let copy = Storage(capacity: capacity)
            copy.elements.initialize(from: elements, count: count)
            copy.count = count
            return copy
        }
    }

    private var storage = Storage(capacity: 0)

    init() {}

    var count: Int { storage.count }
    var capacity: Int { storage.capacity }

    subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < storage.count, "index out of range")
            return storage.elements[index]
        }
        set {
            precondition(index >= 0 && index < storage.count, "index out of range")
            makeUnique(capacity: storage.capacity)
            storage.elements[index] = newValue
        }
    }

    mutating func append(_ element: Element) {
        if storage.count == storage.capacity {
            makeUnique(capacity: max(16, 2 * storage.capacity))
        } else {
            makeUnique(capacity: storage.capacity)
        }
        (storage.elements + storage.count).initialize(to: element)
        storage.count += 1
    }

    /// Appends `count` elements that `initialize` writes in place, every one of them (from any thread).
    mutating func append(count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Element>) -> Void) {
        makeUnique(capacity: max(storage.capacity, storage.count + count))
        initialize(UnsafeMutableBufferPointer(start: storage.elements + storage.count, count: count))
        storage.count += count
    }

    /// Makes room for `capacity` elements, so that appends up to it copy nothing.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > storage.capacity { makeUnique(capacity: capacity) }
    }

    mutating func removeAll() { storage = Storage(capacity: 0) }

    /// Drops spare capacity.
    mutating func shrinkToFit() {
        if storage.capacity > storage.count { storage = storage.copy(capacity: storage.count) }
    }

    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.elements, count: storage.count))
    }

    private mutating func makeUnique(capacity: Int) {
        if !isKnownUniquelyReferenced(&storage) || capacity != storage.capacity {
            storage = storage.copy(capacity: capacity)
        }
    }
}
