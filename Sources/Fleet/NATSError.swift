import CNATS

/// A failed NATS or JetStream call: what was being done and the library's own words for why.
public struct NATSError: Error, CustomStringConvertible {
    public let status: natsStatus
    public let description: String

    init(_ what: String, _ status: natsStatus) {
        self.status = status
        var lastStatus = NATS_OK
        let detail = nats_GetLastError(&lastStatus).map { String(cString: $0) } ?? ""
        let text = String(cString: natsStatus_GetText(status))
        description = detail.isEmpty || detail == text ? "\(what): \(text)" : "\(what): \(text) (\(detail))"
    }

    var isNotFound: Bool { status == NATS_NOT_FOUND }
    var isTimeout: Bool { status == NATS_TIMEOUT }
}

@inline(__always)
func check(_ status: natsStatus, _ what: @autoclosure () -> String) throws(NATSError) {
    guard status == NATS_OK else { throw NATSError(what(), status) }
}
