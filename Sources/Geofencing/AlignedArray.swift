#if canImport(Glibc)
import Glibc
#endif

/// An array laid out for random reads. Its storage starts on a cache-line boundary, so that records of 32
/// or 64 bytes each sit in one line (`Array` puts its elements after a 32-byte header: 64-byte records in
/// it always straddle two lines). A large one is mapped on its own and backed by 2 MB pages where the
/// kernel allows (transparent huge pages on request): with 4 KB pages, a random read in hundreds of
/// megabytes also misses the TLB and walks the page tables, which here costs as much as the read itself.
/// Copy on write, like `Array`.
struct AlignedArray<Element: BitwiseCopyable>: @unchecked Sendable {
    static var lineSize: Int { 64 }
    static var hugePageSize: Int { 2 << 20 }
    /// Storage from this size on is mapped on its own.
    static var mappedSize: Int { 4 << 20 }

    private final class Storage {
        let elements: UnsafeMutablePointer<Element>
        var count = 0
        let capacity: Int
        /// The mapping to unmap, for mapped storage.
        private let mapping: (start: UnsafeMutableRawPointer, length: Int)?

        init(capacity: Int) {
            self.capacity = capacity
            let bytes = max(1, capacity) * MemoryLayout<Element>.stride
            if bytes >= AlignedArray.mappedSize, let start = Self.map(bytes + AlignedArray.hugePageSize) {
                let length = bytes + AlignedArray.hugePageSize
                mapping = (start, length)
                let page = UInt(AlignedArray.hugePageSize)
                let aligned = (UInt(bitPattern: start) + page - 1) & ~(page - 1)
                let raw = UnsafeMutableRawPointer(bitPattern: aligned)!
                _ = madvise(raw, (bytes + Int(page) - 1) & ~(Int(page) - 1), MADV_HUGEPAGE)
                elements = raw.bindMemory(to: Element.self, capacity: capacity)
            } else {
                mapping = nil
                elements = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: AlignedArray.lineSize)
                    .bindMemory(to: Element.self, capacity: capacity)
            }
        }

        private static func map(_ length: Int) -> UnsafeMutableRawPointer? {
            let start = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            return start == MAP_FAILED ? nil : start
        }

        deinit {
            if let mapping { munmap(mapping.start, mapping.length) } else { elements.deallocate() }
        }

        func copy(capacity: Int) -> Storage {
            let copy = Storage(capacity: capacity)
            copy.elements.initialize(from: elements, count: min(count, capacity))
            copy.count = min(count, capacity)
            return copy
        }
    }

    private var storage = Storage(capacity: 0)

    init() {}

    init(repeating element: Element, count: Int) {
        storage = Storage(capacity: count)
        storage.elements.initialize(repeating: element, count: count)
        storage.count = count
    }

    init(_ elements: [Element]) {
        storage = Storage(capacity: elements.count)
        elements.withUnsafeBufferPointer { storage.elements.initialize(from: $0.baseAddress!, count: $0.count) }
        storage.count = elements.count
    }

    var count: Int { storage.count }
    var capacity: Int { storage.capacity }
    var isEmpty: Bool { storage.count == 0 }

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
        makeUnique(capacity: storage.count == storage.capacity ? max(16, 2 * storage.capacity) : storage.capacity)
        (storage.elements + storage.count).initialize(to: element)
        storage.count += 1
    }

    mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
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

    mutating func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R {
        makeUnique(capacity: storage.capacity)
        return try body(UnsafeMutableBufferPointer(start: storage.elements, count: storage.count))
    }

    private mutating func makeUnique(capacity: Int) {
        if !isKnownUniquelyReferenced(&storage) || capacity != storage.capacity {
            storage = storage.copy(capacity: capacity)
        }
    }
}
