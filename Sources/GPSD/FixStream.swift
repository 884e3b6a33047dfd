import GeoWakeCore

/// Live fixes from a source, as an async sequence.
///
/// Each iteration is one consumer: the source watches the receiver from the moment the first iteration
/// starts until the last one ends, whether by `break`, by dropping the iterator, or by task cancellation.
/// A consumer that falls behind keeps only the newest `bufferingNewest` fixes: stale positions are
/// worth less than current ones.
public struct FixStream: AsyncSequence, Sendable {
    public typealias Element = Fix

    let demand: FixDemand
    let bufferingNewest: Int

    public func makeAsyncIterator() -> Iterator {
        let subscription = demand.subscribe(bufferingNewest: bufferingNewest)
        return Iterator(subscription: subscription, base: subscription.stream.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: FixDemand.Subscription
        var base: AsyncStream<Fix>.Iterator

        public mutating func next() async -> Fix? {
            await base.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Fix? {
            await base.next(isolation: actor)
        }
    }
}
