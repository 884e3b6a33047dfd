#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Fleet
import JSONLines

/// `geowake fleet events --durable NAME`: prints the fleet's events as JSON lines, `{"device":…,"seq":…,` (the
/// events stream's sequence) then the event's keys as `geowake replay` prints them, acknowledging each once
/// written to standard output. An event written but not acknowledged (a reader killed, a node lost) is given
/// again: a reader that must see each once drops a `seq` it has seen.
struct FleetEventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the fleet's events through a durable consumer, acknowledging each."
    )

    @Option(help: "The durable consumer's name: a reader that comes back under it continues where it stopped.")
    var durable: String

    @Option(help: "Only this device's events.")
    var device: String?

    @Option(help: "Stop after this many seconds without an event (default: run until interrupted).")
    var idleExit: Double?

    @OptionGroup var nats: FleetConnectionOptions

    func run() throws {
        let connection = try nats.connect(name: "geowake fleet events")
        var reader = try subscribe(connection)
        var line: [UInt8] = []
        var idleSince = monotonicSeconds()
        var count = 0
        while true {
            let read: Int
            do {
                read = try reader.read(batch: 512, timeoutMilliseconds: 500) { event in
                    line.removeAll(keepingCapacity: true)
                    line.append(contentsOf: "{\"device\":".utf8)
                    JSONLineWriter.appendString(event.device.utf8, to: &line)
                    line.append(contentsOf: ",\"seq\":\(event.streamSequence)".utf8)
                    let rest = event.payload.dropFirst()
                    // The event line's own keys follow; `{}` would leave nothing to join.
                    if rest.first != UInt8(ascii: "}") { line.append(UInt8(ascii: ",")) }
                    line.append(contentsOf: rest)
                    line.append(UInt8(ascii: "\n"))
                    try line.withUnsafeBytes { try StandardOutput.write($0) }
                    count += 1
                }
            } catch let error as NATSError {
                // A node lost, a consumer leader moving: the durable consumer is still there; read on from it.
                fleetNote("geowake fleet events: \(error); subscribing again")
                reader = try subscribe(connection)
                continue
            }
            if read > 0 { idleSince = monotonicSeconds() }
            if let idleExit, monotonicSeconds() - idleSince >= idleExit { break }
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
