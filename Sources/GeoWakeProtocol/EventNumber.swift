/// What names an event: the daemon's store epoch, then the client's sequence number within it. Every daemon start
/// takes a greater epoch, so a sequence number issued again after a power cut rolled the store back comes with a
/// greater epoch and is never taken for the event that had it before.
public struct EventNumber: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var epoch: Int64
    public var seq: Int64

    public init(epoch: Int64, seq: Int64) {
        self.epoch = epoch
        self.seq = seq
    }

    public static func < (a: EventNumber, b: EventNumber) -> Bool { (a.epoch, a.seq) < (b.epoch, b.seq) }

    public var description: String { "\(epoch):\(seq)" }
}

/// A subscriber's memory of what its code has handled: the daemon resends what was not acknowledged (after a
/// reconnect, a restart, a power cut), and an event at or below the last handled one is such a resend. The
/// `GeoWake` library drops resends with it; the simulator checks the delivery promise through it.
public struct HandledEvents: Sendable {
    public private(set) var last = EventNumber(epoch: 0, seq: 0)

    public init() {}

    public func isResend(_ number: EventNumber) -> Bool { number <= last }

    public mutating func handled(_ number: EventNumber) { last = max(last, number) }
}
