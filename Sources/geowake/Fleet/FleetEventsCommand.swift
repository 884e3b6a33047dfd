#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Fleet
import JSONLines

/// `geowake fleet events --durable NAME`: prints the fleet's events as JSON lines, `{"device":…,"seq":…,"index":…,`
/// (the events stream's sequence of the message holding the event, and the event's place in it) then the event's
/// keys as `geowake replay` prints them, acknowledging each message once its events are written to standard
/// output. A message written but not acknowledged (a reader killed, a node lost) is given again: a reader that
/// must see each event once drops a `seq` and `index` it has seen.
struct FleetEventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the fleet's events through a durable consumer, acknowledging each."
    )

    @Option(help: "The durable consumer's name: a reader that comes back under it continues where it stopped.")
    var durable: String

    @Option(help: "Only this device's events.")
    var device: String?

    @Option(parsing: .unconditional, help: "Stop after this many seconds without an event, once nothing is left for this durable name (default: run until interrupted).")
    var idleExit: Double?

    @OptionGroup var nats: FleetConnectionOptions

    func validate() throws {
        if let idleExit, !(idleExit >= 0 && idleExit.isFinite) {
            throw ValidationError("--idle-exit must be a number of seconds >= 0, not \(idleExit)")
        }
    }

    func run() throws {
        let connection = try nats.connect(name: "geowake fleet events")
        var reader = try subscribe(connection)
        var line: [UInt8] = []
        var idleSince = monotonicSeconds()
        var count = 0
        var waitingNoted = false
        while true {
            let read: Int
            do {
                read = try reader.read(batch: 512, timeoutMilliseconds: 500) { message in
                    line.removeAll(keepingCapacity: true)
                    var index = 0
                    for event in message.body.split(separator: UInt8(ascii: "\n")) {
                        line.append(contentsOf: "{\"device\":".utf8)
                        JSONLineWriter.appendString(message.device.utf8, to: &line)
                        line.append(contentsOf: ",\"seq\":\(message.streamSequence),\"index\":\(index)".utf8)
                        let rest = event.dropFirst()
                        // The event line's own keys follow; `{}` would leave nothing to join.
                        if rest.first != UInt8(ascii: "}") { line.append(UInt8(ascii: ",")) }
                        line.append(contentsOf: rest)
                        line.append(UInt8(ascii: "\n"))
                        index += 1
                    }
                    try line.withUnsafeBytes { try StandardOutput.write($0) }
                    count += index
                }
            } catch let error as NATSError {
                // A node lost, a consumer leader moving: the durable consumer is still there; read on from it.
                fleetNote("geowake fleet events: \(error); subscribing again")
                reader = try subscribe(connection)
                continue
            }
            if read > 0 { idleSince = monotonicSeconds() }
            if let idleExit, monotonicSeconds() - idleSince >= idleExit {
                // Idle is not done while the consumer holds messages for this reader: ones given on a connection
                // the server then cut (a slow consumer) come again only after the acknowledgement wait (30 s).
                let left = try? reader.outstanding()
                guard let left, left.undelivered > 0 || left.unacknowledged > 0 else { break }
                if !waitingNoted {
                    fleetNote("geowake fleet events: idle, but \(left.unacknowledged) messages given and not acknowledged, \(left.undelivered) not given yet; reading on until they come")
                    waitingNoted = true
                }
                idleSince = monotonicSeconds()
            }
        }
        fleetNote("geowake fleet events: \(count) events")
    }

    /// The durable consumer, retried for up to 60 s while the cluster elects leaders after losing a node.
    func subscribe(_ connection: NATSConnection) throws -> FleetEventsReader {
        let deadline = monotonicSeconds() + 60
        while true {
            do {
                try FleetSetup.ensure(connection, layout: nats.layout)
                return try FleetEventsReader(connection, durable: durable, device: device)
            } catch {
                guard monotonicSeconds() < deadline else { throw CommandError("\(error)") }
                usleep(500_000)
            }
        }
    }
}
