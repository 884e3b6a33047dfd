import Foundation

/// Batches made on a second thread and taken in order on the calling one, a few ahead at most: a restart reads its
/// stored regions out of SQLite on one core while the region loader parses the batch before on another.
final class ReadAhead<Batch>: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Batch] = []
    private var spares: [Batch] = []
    private var ended = false
    private var failure: Error?
    private var cancelled = false
    private let limit: Int

    /// Starts `produce` on a new thread; it hands each batch to `put`, which returns false once the taker has
    /// stopped (then it should return), and may fill a batch `spare` gives back instead of a new one.
    init(limit: Int = 4, _ produce: @escaping (_ put: (Batch) -> Bool, _ spare: () -> Batch?) throws -> Void) {
        self.limit = limit
        // The caller waits for the producer (`take` to the end, or `cancel`) before what it captured goes; and what
        // it captured (a store holding its file's lock) is let go before the caller hears the end.
        nonisolated(unsafe) var produce = Optional(produce)
        Thread.detachNewThread { [self] in
            var error: Error?
            do { try produce?(put, spare) } catch let thrown { error = thrown }
            produce = nil
            condition.lock()
            (ended, failure) = (true, error)
            condition.broadcast()
            condition.unlock()
        }
    }

    private func put(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= limit && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }

    /// A batch the taker is done with, to fill again.
    private func spare() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        return spares.popLast()
    }

    /// Gives a taken batch back for the producer to fill again: its buffers keep their capacity, where a new batch's
    /// are fresh pages, each faulted in as it is first written.
    func recycle(_ batch: Batch) {
        condition.lock()
        defer { condition.unlock() }
        if spares.count < limit { spares.append(batch) }
    }

    /// The next batch; nil after the last. Throws what the producer threw, after the batches it made before.
    func take() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !ended { condition.wait() }
        guard ready.isEmpty else {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer at its next batch and waits for it to end.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        condition.broadcast()
        while !ended { condition.wait() }
    }
}
