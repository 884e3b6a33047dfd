import Dispatch
import Synchronization
import RegionIndex

/// Validates and stores the features of one file on a second thread while the reader parses the next
/// ones: parsing and validation each take about half of a large load. Features are handed over in order
/// through a ring of drafts that the two threads swap, so no draft is copied, and the first error is the
/// one a load on one thread would report. The ring changes hands a batch of drafts at a time: handed over one
/// by one, small features (a circle, a square) cost a thread wake-up each, a fifth of a restart's time, and
/// batches of 16 still cost a twelfth of the reading thread's.
final class FeatureIngest: @unchecked Sendable {
    private(set) var store: RegionStore
    private let file: String
    private let firstSlots: [(file: String, slot: UInt32)]
    private let validator = RegionValidator()
    private let capacity = 1024
    /// Drafts per hand-over; `capacity` holds four batches.
    private let batch = 256
    private let drafts: UnsafeMutablePointer<FeatureDraft>
    /// The feature number of each draft in the ring; -1 marks the end of the file.
    private let numbers: UnsafeMutablePointer<Int>
    /// Count batches, not drafts. Made with 0 and signalled up: libdispatch traps when a semaphore made with
    /// more ends with less.
    private let free = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var produced = 0
    private var failure: RegionLoadError?
    private let failed = Atomic<Bool>(false)

    init(into store: RegionStore, file: String, firstSlots: [(file: String, slot: UInt32)]) {
        (self.store, self.file, self.firstSlots) = (store, file, firstSlots)
        drafts = .allocate(capacity: capacity)
        drafts.initialize(repeating: FeatureDraft(), count: capacity)
        numbers = .allocate(capacity: capacity)
        numbers.initialize(repeating: 0, count: capacity)
        for _ in 0..<capacity / batch { free.signal() }
        DispatchQueue.global().async { self.work() }
    }

    deinit {
        drafts.deinitialize(count: capacity)
        drafts.deallocate()
        numbers.deallocate()
    }

    /// Hands feature `number` over (`draft` gets an emptied one back); false once a feature has failed,
    /// when the reader should stop.
    func put(_ number: Int, _ draft: inout FeatureDraft) -> Bool {
        guard !failed.load(ordering: .relaxed) else { return false }
        if produced % batch == 0 { free.wait() }
        let k = produced % capacity
        produced += 1
        swap(&drafts[k], &draft)
        numbers[k] = number
        if produced % batch == 0 { filled.signal() }
        return true
    }

    /// Waits until every feature handed over is stored or one has failed; returns the first failure.
    func finish() -> RegionLoadError? {
        if produced % batch == 0 { free.wait() }
        numbers[produced % capacity] = -1
        filled.signal()
        finished.wait()
        return failure
    }

    private func work() {
        // The store is worked on as a local: read through `self` inside the id lookup's closure, it was
        // copied (every array retained and released) for each feature.
        var store = self.store
        self.store = RegionStore()
        var taken = 0
        // A batch ends at its last draft or at the end mark, which `finish()` puts after a partial batch.
        batches: while true {
            filled.wait()
            for _ in 0..<batch {
                let k = taken % capacity
                taken += 1
                let number = numbers[k]
                if number < 0 { break batches }
                if failure == nil {
                    do throws(InvalidRegion) {
                        let draft = drafts + k
                        try validator.validate(&draft.pointee)
                        _ = try store.append(draft.pointee) { earlier in
                            InvalidRegion(RegionLoader.duplicateMessage(draft.pointee.id, earlier: earlier.rawValue, firstSlots: firstSlots))
                        }
                    } catch {
                        failure = RegionLoadError(file: file, feature: number, reason: error.reason)
                        failed.store(true, ordering: .relaxed)
                    }
                }
            }
            free.signal()
        }
        self.store = store
        finished.signal()
    }
}
