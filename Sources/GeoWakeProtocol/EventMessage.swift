import JSONLines

/// `{"type":"event","epoch":E,"seq":N,"event":{…}}`: one outbox event and the number that names it. The daemon
/// writes the event object's stored text into the line as it is; the library reads the line into values.
public struct EventMessage: Hashable, Sendable {
    public var number: EventNumber
    /// The inner object: the keys of a `geowake replay` line for the same service.
    public var event: JSONValue

    public init(number: EventNumber, event: JSONValue) {
        self.number = number
        self.event = event
    }

    /// A server message that is an event; nil for any other. A message without `epoch` is of epoch 0.
    public init?(message: JSONValue) {
        guard message["type"] == "event", let seq = message["seq"]?.int64, let event = message["event"] else { return nil }
        self.init(number: EventNumber(epoch: message["epoch"]?.int64 ?? 0, seq: seq), event: event)
    }

    /// The line the daemon sends, newline included, around an event object's JSON text.
    public static func line(_ number: EventNumber, eventText: String) -> [UInt8] {
        var line = JSONLineWriter(reservingCapacity: eventText.utf8.count + 64)
        line.beginObject()
        line.field("type", "event")
        line.field("epoch", Int(number.epoch))
        line.field("seq", Int(number.seq))
        line.field("event", json: eventText)
        line.endLine()
        return line.bytes
    }
}

/// `ack`: every event of the client up to `seq` was handled. With `epoch` (the acknowledged event's own) it names
/// only events up to (`epoch`, `seq`), never a later epoch's event that reuses the number after a power cut.
public struct AckRequest: Hashable, Sendable {
    public var seq: Int64
    public var epoch: Int64?

    public init(seq: Int64, epoch: Int64?) {
        self.seq = seq
        self.epoch = epoch
    }

    /// The ack of one handled event.
    public init(_ number: EventNumber) { self.init(seq: number.seq, epoch: number.epoch) }

    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["seq": .integer(seq)]
        if let epoch { fields["epoch"] = .integer(epoch) }
        return fields
    }

    public init(fields: [String: JSONValue]) throws(RequestError) {
        seq = try fields.integer("seq")
        epoch = fields["epoch"] == nil ? nil : try fields.integer("epoch")
        // Sequence numbers and epochs start at 1 and 0: a negative one names no event.
        guard seq >= 0 else { throw .badRequest("\"seq\" must be an integer >= 0") }
        guard (epoch ?? 0) >= 0 else { throw .badRequest("\"epoch\" must be an integer >= 0") }
    }
}
