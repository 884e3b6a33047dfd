#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Fleet
import JSONLines

/// `geowake fleet events --durable NAME`: prints the fleet's events as JSON lines, `{"device":…,` then the
/// event's keys as `geowake replay` prints them, acknowledging each once written to standard output.
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
        try FleetSetup.ensure(connection, layout: nats.layout)
        let reader = try FleetEventsReader(connection, durable: durable, device: device)
        var line: [UInt8] = []
        var idleSince = monotonicSeconds()
        var count = 0
        while true {
            let read = try reader.read(batch: 512, timeoutMilliseconds: 500) { event in
                line.removeAll(keepingCapacity: true)
                line.append(contentsOf: "{\"device\":".utf8)
                JSONLineWriter.appendString(event.device.utf8, to: &line)
                let rest = event.payload.dropFirst()
                // The event line's own keys follow; `{}` would leave nothing to join.
                if rest.first != UInt8(ascii: "}") { line.append(UInt8(ascii: ",")) }
                line.append(contentsOf: rest)
                line.append(UInt8(ascii: "\n"))
                try line.withUnsafeBytes { try StandardOutput.write($0) }
                count += 1
            }
            if read > 0 { idleSince = monotonicSeconds() }
            if let idleExit, monotonicSeconds() - idleSince >= idleExit { break }
        }
        fleetNote("geowake fleet events: \(count) events")
    }
}
