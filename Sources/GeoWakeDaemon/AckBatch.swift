import GeoWakeProtocol

/// Acks are applied in one transaction per loop turn instead of one each: a subscriber acks every event, and each
/// commit is a WAL write on the loop thread that fixes wait behind. A reply still follows its ack's commit, and any
/// other request first applies the acks before it, so replies keep the order of requests and see every earlier ack.
extension DaemonCore {
    /// Validates and applies one ack inside a write transaction; the ack reply's result.
    ///
    /// An ack of an earlier epoch (a client that handled events a power cut then took from the store) acknowledges
    /// only the events it can name: those of its epoch up to its seq, never a later epoch's event that reuses the
    /// number.
    func acknowledge(_ request: Request, _ transaction: StoreTransaction) throws -> [String: JSONValue] {
        let client = try request.client()
        let ack = try ProtocolError.reading { () throws(RequestError) in try AckRequest(fields: request.fields) }
        var seq = ack.seq
        let last = try transaction.lastSeq(of: client)
        if let epoch = ack.epoch, epoch < transaction.epoch {
            let later = try transaction.firstSeq(of: client, afterEpoch: epoch)
            seq = min(seq, last, (later ?? Int64.max) - 1)
        }
        guard seq <= last else { throw ProtocolError.badRequest("\"seq\" \(seq) is beyond the last assigned \(last)") }
        try acknowledge(transaction, client, through: seq, at: request.now)
        return AckReply(acked: seq, pending: Int64(try transaction.pendingCount(of: client))).fields
    }

    /// Applies the acks read this turn, several each in a savepoint of one transaction (a bad one fails alone), then
    /// replies; a lone ack is the `ack` operation itself.
    func applyDeferredAcks() {
        let requests = deferredAcks
        guard !requests.isEmpty else { return }
        deferredAcks = []
        if requests.count == 1 {
            let request = requests[0]
            reply(request.connection, id: request.id, Self.result { try ack(request) })
            return
        }
        var results: [Result<[String: JSONValue], ProtocolError>] = []
        do {
            try store.write { transaction in
                for request in requests {
                    var result: Result<[String: JSONValue], ProtocolError> = .failure(ProtocolError("internal", "the ack was not applied"))
                    try transaction.inSavepoint {
                        result = Self.result { try acknowledge(request, transaction) }
                        if case .success = result { return true }
                        return false
                    }
                    results.append(result)
                }
            }
        } catch {
            logger.error("store write failed", metadata: ["error": "\(error)"])
            results = requests.map { _ in .failure(ProtocolError("internal", "the store could not be written: \(error)")) }
        }
        for (request, result) in zip(requests, results) {
            reply(request.connection, id: request.id, result)
        }
    }
}
