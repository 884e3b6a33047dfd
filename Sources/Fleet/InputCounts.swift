/// What a partition read and what it could not use; kept in its checkpoint, so counts survive a takeover.
public struct InputCounts: Codable, Sendable, Equatable {
    public var messages = 0
    public var fixes = 0
    public var malformed = 0
    public var notAFix = 0
    public var withoutTime = 0
    public var outOfOrder = 0
    public var unknownSubject = 0
    public var events = 0

    public init() {}

    var summary: String {
        "\(messages) messages, \(fixes) fixes, \(events) events; skipped: \(malformed) malformed, \(notAFix) not a fix, "
            + "\(withoutTime) without time, \(outOfOrder) out of order, \(unknownSubject) unknown subject"
    }
}
