import GeoWakeCore
import Synchronization

/// A source's background activity (a gpsd watch, an open tty); stopped when the last consumer leaves.
protocol SourceWorker: Sendable {
    /// Asks the worker to let go of its connection; returns at once.
    func stop()
    /// Blocks until the worker has let go. A new worker waits for its predecessor, so the source
    /// never holds two connections and its state reports stay in order.
    func waitUntilFinished()
}

/// Hands out fix streams and keeps a worker running exactly while at least one of them is being
/// consumed: the first consumer starts it, the last one to leave stops it. This is what lets gpsd
/// power the receiver down when nobody needs a position.
final class FixDemand: Sendable {
    private struct State {
        var nextID = 0
        var consumers: [Int: AsyncStream<Fix>.Continuation] = [:]
        /// Consumers called on the worker's thread with each fix (`FixWatch`).
        var watchers: [Int: @Sendable (Fix) -> Void] = [:]
        var isEmpty: Bool { consumers.isEmpty && watchers.isEmpty }
        var worker: (any SourceWorker)?
        var stoppedWorker: (any SourceWorker)?
    }

    private let state = Mutex(State())
    /// Builds and starts a worker that first waits for the previous one, if any, to finish.
    /// Called with the demand's lock held, so it must not block.
    private let startWorker: @Sendable (_ demand: FixDemand, _ previous: (any SourceWorker)?) -> any SourceWorker

    init(startWorker: @escaping @Sendable (_ demand: FixDemand, _ previous: (any SourceWorker)?) -> any SourceWorker) {
        self.startWorker = startWorker
    }

    var consumerCount: Int { state.withLock { $0.consumers.count + $0.watchers.count } }

    /// Delivers a fix to every current consumer; a consumer that lags loses its oldest buffered fixes.
    ///
    /// Yields outside the lock: a yield takes the consuming task's status lock, and cancelling that task
    /// holds its status lock while `onTermination` waits for ours, so yielding under the lock can deadlock.
    /// A consumer that leaves meanwhile gets a yield on a finished continuation, which is dropped.
    func publish(_ fix: Fix) {
        let (consumers, watchers) = state.withLock { (Array($0.consumers.values), Array($0.watchers.values)) }
        for continuation in consumers { continuation.yield(fix) }
        for watcher in watchers { watcher(fix) }
    }

    /// A consumer without a stream: `deliver` runs on the worker's thread with each fix, until the watch stops.
    func watch(_ deliver: @escaping @Sendable (Fix) -> Void) -> FixWatch {
        let id = join { state, id in state.watchers[id] = deliver }
        return FixWatch { [weak self] in self?.leave(id) }
    }

    /// Adds a consumer under a new id, starting the worker for the first one.
    private func join(_ add: (inout State, Int) -> Void) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            add(&state, id)
            if state.worker == nil {
                state.worker = startWorker(self, state.stoppedWorker)
                state.stoppedWorker = nil
            }
            return id
        }
    }

    private func leave(_ id: Int) {
        state.withLock { state in
            guard state.watchers.removeValue(forKey: id) != nil else { return }
            stopWorkerIfIdle(&state)
        }
    }

    private func stopWorkerIfIdle(_ state: inout State) {
        if state.isEmpty {
            state.worker?.stop()
            state.stoppedWorker = state.worker
            state.worker = nil
        }
    }

    func subscribe(bufferingNewest limit: Int) -> Subscription {
        let (stream, continuation) = AsyncStream<Fix>.makeStream(bufferingPolicy: .bufferingNewest(limit))
        let id = join { state, id in state.consumers[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return Subscription(demand: self, id: id, stream: stream)
    }

    fileprivate func unsubscribe(_ id: Int) {
        let continuation = state.withLock { state -> AsyncStream<Fix>.Continuation? in
            guard let continuation = state.consumers.removeValue(forKey: id) else { return nil }
            stopWorkerIfIdle(&state)
            return continuation
        }
        continuation?.finish()
    }

    /// One consumer's place in the demand; leaving happens when it is released or its task is cancelled.
    final class Subscription: Sendable {
        private let demand: FixDemand
        private let id: Int
        let stream: AsyncStream<Fix>

        fileprivate init(demand: FixDemand, id: Int, stream: AsyncStream<Fix>) {
            self.demand = demand
            self.id = id
            self.stream = stream
        }

        deinit { demand.unsubscribe(id) }
    }
}
