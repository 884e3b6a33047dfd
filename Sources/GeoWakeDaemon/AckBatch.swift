import GeoWakeProtocol

/// Acks are applied in one transaction per loop turn instead of one each: a subscriber acks every event, and each
/// commit is a WAL write on the loop thread that fixes wait behind. A reply still follows its ack's commit, and any
/// other request is decided only once the acks before it are stored and answered (`DaemonEffect.takeAgain`), so
/// replies keep the order of requests and see every earlier ack.
extension DaemonCore {
    /// An ack as a write: the store checks its seq against the client's books (`StoreTransaction.apply`).
    func ack(_ request: Request) throws -> OperationOutcome {
        let (write, reply) = try ackWrite(request)
        return .write(write, then: reply)
    }

    private func ackWrite(_ request: Request) throws -> (RequestWrite, RequestWrite.Reply) {
        let client = try request.client()
        let ack = try ProtocolError.reading { () throws(RequestError) in try AckRequest(fields: request.fields) }
        return (RequestWrite(changes: [.acknowledge(client, seq: ack.seq, epoch: ack.epoch)], synced: false), { [self] outcome in
            guard case .acknowledged(let seq, let pending, let reportedDropped) = outcome.answers.first else {
                throw ProtocolError("internal", "the store did not answer the ack")
            }
            // The ack made room for the `eventsDropped` event it queued.
            if reportedDropped, let connection = connection(of: client) { emit(.readOutbox(connection, fromStart: false)) }
            return AckReply(acked: seq, pending: pending).fields
        })
    }

    /// Applies the acks read this turn in one batch, each in a savepoint of its transaction (a bad one fails alone),
    /// and replies to each, in order, once it committed; a malformed ack is answered in its place among them.
    func applyDeferredAcks() {
        let requests = deferredAcks
        guard !requests.isEmpty else { return }
        deferredAcks = []
        var writes: [RequestWrite] = []
        for request in requests {
            let (write, reply): (RequestWrite, RequestWrite.Reply)
            do {
                (write, reply) = try ackWrite(request)
            } catch {
                (write, reply) = (RequestWrite(changes: [], synced: false), { _ in throw error })
            }
            writes.append(write)
            awaiting.append(AwaitingStore(request: request, operation: .ack, then: reply))
        }
        store(StoreBatch(time: requests[0].now, requests: writes))
    }
}
