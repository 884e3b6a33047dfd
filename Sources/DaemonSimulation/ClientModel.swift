import Glibc
import GeoWakeProtocol

/// What user code of one client has seen, checked against `replay`'s events as it happens: each new event is the
/// next one replay printed (nothing lost, nothing out of order), and an event seen before comes again only where
/// the delivery promise allows it — as the same event (number), when its acknowledgement was not yet confirmed as
/// the process that handled it died, or a power cut may have taken the acknowledgement; as a new one only where,
/// under `--durability normal`, a power cut took the event's own commit and the replayed trace produced it again.
struct ClientModel {
    let scenario: SimulationScenario.Client
    let expected: [String]
    private var positions: [String: Int] = [:]
    /// Index into `expected` of the next new event.
    private(set) var next = 0
    /// Who handled each event last, and as which number.
    private var handledBy: [Int: (pid: pid_t, number: EventNumber)] = [:]
    /// Events that may come again as they came (the same number): a resend from the outbox.
    private var mayRepeat: Set<Int> = []
    /// Events that may come again under a new number: produced anew from the trace after a power cut under
    /// `--durability normal` took back their commit. Under `full` nothing leaves the daemon before its sync.
    private var mayComeAnew: Set<Int> = []
    /// Events a dead process acknowledged on its connection to the running daemon: the daemon takes those acks in its
    /// next turn, and they hold; only if it goes down first may the events come again.
    private var ackedByTheDead: Set<Int> = []
    private(set) var repeats = 0

    init(_ scenario: SimulationScenario.Client, expected: [String]) {
        self.scenario = scenario
        self.expected = expected
        for (index, line) in expected.enumerated() where positions[line] == nil { positions[line] = index }
    }

    /// User code handled `text`; a violation's description, or nil.
    mutating func handled(_ text: String, as number: EventNumber, by pid: pid_t) -> String? {
        if text.hasPrefix("{\"event\":\"status\"") { return nil }
        if next < expected.count, text == expected[next] {
            handledBy[next] = (pid, number)
            next += 1
            return nil
        }
        if let index = positions[text], index < next,
           mayComeAnew.contains(index) || (mayRepeat.contains(index) && handledBy[index]?.number == number) {
            handledBy[index] = (pid, number)
            repeats += 1
            return nil
        }
        let wanted = next < expected.count ? "replay's event #\(next + 1) \(expected[next])" : "no more events (replay has \(expected.count))"
        if let index = positions[text], index < next {
            return "\(scenario.id): user code handled replay's event #\(index + 1) a second time, as \(number): \(text); expected \(wanted)"
        }
        return "\(scenario.id): user code handled \(number) \(text), expected \(wanted)"
    }

    /// The process died: what it handled without a confirmed ack may come again, unless its ack is in the socket of
    /// its connection to a daemon that is up (`inSocket`), which reads what a dead peer sent before letting it go.
    mutating func processDied(_ pid: pid_t, confirmedThrough: EventNumber, inSocket: Set<EventNumber>) {
        for (index, entry) in handledBy where entry.pid == pid && entry.number > confirmedThrough {
            if inSocket.contains(entry.number) { ackedByTheDead.insert(index) } else { mayRepeat.insert(index) }
        }
    }

    /// The daemon finished a turn: it has read every dead process's socket.
    mutating func daemonTurned() { ackedByTheDead = [] }

    /// The daemon died (or stopped) before it read them: the acks in dead processes' sockets are lost.
    mutating func daemonWentDown() {
        mayRepeat.formUnion(ackedByTheDead)
        ackedByTheDead = []
    }

    /// A power cut may take back any commit since the last sync: acks, and under `normal` events with the trace
    /// position.
    mutating func powerCut(durabilityFull: Bool) {
        mayRepeat.formUnion(handledBy.keys)
        if !durabilityFull { mayComeAnew.formUnion(handledBy.keys) }
    }

    var isComplete: Bool { next == expected.count }
}
