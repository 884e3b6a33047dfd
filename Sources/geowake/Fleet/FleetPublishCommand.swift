#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Fleet
import GeoWakeCore
import Traces

/// `geowake fleet publish TRACE --device ID`: feeds a trace's fixes in as one device, or as many (`--devices N`:
/// ID-0 … ID-(N-1), each given every fix, interleaved), optionally at the pace they were recorded.
struct FleetPublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a trace's fixes as one device (or many) on geowake.fix.DEVICE."
    )

    @Argument(help: "The trace file (NMEA, gpsd JSON, GPX), or - for standard input.")
    var trace: String

    @Option(help: "The device id: one NATS subject token (no '.', '*', '>' or spaces).")
    var device: String

    @Option(parsing: .unconditional, help: "Publish the trace as this many devices, ID-0 … ID-(N-1).")
    var devices: Int?

    @Option(parsing: .unconditional, help: "Pace: this many times faster than recorded (0, the default: as fast as the cluster takes them).")
    var speed: Double = 0

    @Option(parsing: .unconditional, help: "Up to this many consecutive fixes of a device per message (1: a message per fix). When paced, a message holds the fixes that are due.")
    var batch = 100

    @OptionGroup var nats: FleetConnectionOptions

    func validate() throws {
        guard !device.isEmpty, !device.contains(where: { ".*> \t".contains($0) }) else {
            throw ValidationError("--device must be one subject token: no '.', '*', '>' or spaces")
        }
        if let devices, devices < 1 { throw ValidationError("--devices must be at least 1") }
        guard speed >= 0 else { throw ValidationError("--speed must be 0 or more") }
        guard batch >= 1 else { throw ValidationError("--batch must be at least 1") }
    }

    func run() throws {
        var fixes: [Fix] = []
        _ = try TraceFile.read(trace) { fixes.append($0) }
        let names = devices.map { n in (0..<n).map { "\(device)-\($0)" } } ?? [device]
        let connection = try nats.connect(name: "geowake fleet publish")
        try FleetSetup.ensure(connection, layout: nats.layout)
        let publisher = FleetPublisher(connection)
        publisher.log = { fleetNote("geowake fleet publish: \($0)") }
        let start = monotonicSeconds()
        let firstTime = fixes.lazy.compactMap(\.time).first
        // Seconds after the start at which a fix is due (0 when not paced).
        let due = { (fix: Fix) -> Double in
            guard self.speed > 0, let firstTime, let time = fix.time else { return 0 }
            return (time - firstTime) / self.speed
        }
        var position = 0
        while position < fixes.count {
            let wait = due(fixes[position]) - (monotonicSeconds() - start)
            if wait > 0 { try publisher.flush(); usleep(UInt32(wait * 1_000_000)) }
            var end = position + 1
            let now = monotonicSeconds() - start
            while end < fixes.count, end - position < batch, due(fixes[end]) <= now { end += 1 }
            for name in names { try publisher.publish(fixes[position..<end], device: name, firstPosition: position) }
            position = end
        }
        try publisher.flush()
        let seconds = monotonicSeconds() - start
        let rate = seconds > 0 ? Int(Double(publisher.published) / seconds) : 0
        var line = "geowake fleet publish: \(publisher.published) fixes of \(names.count) devices in "
        line += "\(Int(seconds * 1000)) ms (\(rate) fixes/s), \(publisher.resent) re-sent"
        fleetNote(line)
    }
}
