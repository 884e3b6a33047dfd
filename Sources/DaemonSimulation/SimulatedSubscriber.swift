import Glibc
import GeoWakeProtocol

/// One connection of a simulated subscriber process, written as the `GeoWake` library behaves: hello and register
/// on connecting (the app's code adds its monitor and service requests on a fresh start), then every event that is
/// not a resend handed to user code and acknowledged with its (epoch, seq) at once, in the same step: an event
/// counts as handled once its acknowledgement is in the socket, as the library acks when the loop body returns.
final class SimulatedSubscriber {
    let pid: pid_t
    let clientID: String
    /// The simulator's end of the socket pair; the daemon serves the other end.
    private(set) var fd: Int32
    private var input: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var nextID = 1
    /// The library's memory of what user code handled in this process: it outlives the connection, as a
    /// `LocationManager` reconnecting after a daemon restart keeps it.
    var handled: HandledEvents
    /// Ack request ids → the event they acknowledge, until the daemon's reply confirms it.
    private var unconfirmedAcks: [Int: EventNumber] = [:]
    private(set) var confirmedThrough = EventNumber(epoch: 0, seq: 0)
    /// The events whose acks this connection wrote and the daemon has not confirmed yet.
    var acksInFlight: Set<EventNumber> { Set(unconfirmedAcks.values) }
    /// Event lines read and not yet handed to user code (the app handles a few per step, or none while stopped).
    private(set) var waiting: [ReceivedEvent] = []
    /// Replies that were not `ok`, for the invariant that the app's own requests are accepted.
    private(set) var refusals: [String] = []
    /// The first break in this connection's numbering: the outbox is sent in order without gaps.
    private(set) var sequenceViolation: String?
    private var lastReceived: EventNumber?
    /// Hands resends to user code too, as a library without its resend filter would.
    private let withoutResendFilter: Bool
    /// Where a replayed seed tells what happens inside a step.
    var narrate: ((String) -> Void)?

    struct ReceivedEvent {
        var number: EventNumber
        /// The event object's JSON text, as `geowake replay` prints it.
        var text: String
    }

    init(pid: pid_t, clientID: String, fd: Int32, handled: HandledEvents, withoutResendFilter: Bool = false) {
        self.pid = pid
        self.handled = handled
        self.withoutResendFilter = withoutResendFilter
        self.clientID = clientID
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    var isConnected: Bool { fd >= 0 }

    func send(_ op: String, _ fields: String = "") {
        guard fd >= 0 else { return }
        let line = "{\"id\":\(nextID),\"op\":\"\(op)\"" + (fields.isEmpty ? "" : "," + fields) + "}\n"
        nextID += 1
        write(Array(line.utf8))
    }

    private func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// Reads what the daemon sent, at most `limit` bytes; false once the daemon closed the connection.
    @discardableResult
    func read(atMost limit: Int = .max) -> Bool {
        guard fd >= 0 else { return false }
        var left = limit
        while left > 0 {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, left), Int32(MSG_DONTWAIT)) }
            if n > 0 {
                input += chunk[..<n]
                left -= n
                continue
            }
            if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                parseLines()
                close()
                return false
            }
            break
        }
        parseLines()
        return true
    }

    private func parseLines() {
        while let newline = input.firstIndex(of: 10) {
            let line = String(decoding: input[..<newline], as: UTF8.self)
            input.removeSubrange(...newline)
            if let event = Self.event(line) {
                if let last = lastReceived, sequenceViolation == nil,
                   event.number.seq != last.seq + 1 || event.number.epoch < last.epoch {
                    sequenceViolation = "received \(event.number) after \(last) on one connection"
                }
                lastReceived = event.number
                waiting.append(event)
            } else if line.hasPrefix("{\"id\":") {
                reply(line)
            }
        }
    }

    private func reply(_ line: String) {
        guard let id = Self.integer(after: "{\"id\":", in: line).map(Int.init) else { return }
        narrate?("pid \(pid) reply \(line.prefix(120))")
        if let number = unconfirmedAcks.removeValue(forKey: id) {
            if line.contains("\"ok\":true") { confirmedThrough = max(confirmedThrough, number) }
            return
        }
        if !line.contains("\"ok\":true") { refusals.append(line) }
    }

    /// Hands up to `count` waiting events to user code (`handle`), dropping resends, acknowledging each.
    func handle(upTo count: Int, _ body: (ReceivedEvent) -> Void) {
        var taken = 0
        while taken < count, !waiting.isEmpty {
            let event = waiting.removeFirst()
            taken += 1
            if !withoutResendFilter && handled.isResend(event.number) {
                acknowledge(event.number)
                continue
            }
            body(event)
            handled.handled(event.number)
            acknowledge(event.number)
        }
    }

    private func acknowledge(_ number: EventNumber) {
        unconfirmedAcks[nextID] = number
        send("ack", "\"seq\":\(number.seq),\"epoch\":\(number.epoch)")
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        waiting.removeAll()
        unconfirmedAcks.removeAll()
    }

    /// `{"type":"event","epoch":E,"seq":N,"event":{…}}`, as the daemon writes it; nil for any other line.
    static func event(_ line: String) -> ReceivedEvent? {
        guard line.hasPrefix("{\"type\":\"event\","),
              let epoch = integer(after: "\"epoch\":", in: line),
              let seq = integer(after: "\"seq\":", in: line),
              let start = line.range(of: ",\"event\":"), line.hasSuffix("}") else { return nil }
        let text = String(line[start.upperBound..<line.index(before: line.endIndex)])
        return ReceivedEvent(number: EventNumber(epoch: epoch, seq: seq), text: text)
    }

    static func integer(after key: String, in line: String) -> Int64? {
        guard let range = line.range(of: key) else { return nil }
        let digits = line[range.upperBound...].prefix { $0 == "-" || $0.isNumber }
        return Int64(digits)
    }
}
