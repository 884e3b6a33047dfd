#if canImport(Glibc)
import Glibc
#endif
import GeoWake
import GeoWakeCore

/// The integration tests' subscriber: `geowake-test-subscriber CLIENT OUTPUT [--regions FILE] [--standard]
/// [--significant] [--crash-after N] [--slow] [--exit-after N] [--until-ended]`. Appends each handled event's object,
/// with its seq, as a JSON line to OUTPUT (flushed before the handler returns, so a line means the body ran).
/// `--until-ended` leaves after handling the trace's `ended` status event.
@main
struct TestSubscriber {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(i...i + 1) }
            return arguments[i + 1]
        }
        func flag(_ name: String) -> Bool {
            guard let i = arguments.firstIndex(of: name) else { return false }
            arguments.remove(at: i)
            return true
        }
        let regions = option("--regions")
        let crashAfter = option("--crash-after").flatMap(Int.init)
        let exitAfter = option("--exit-after").flatMap(Int.init)
        let standard = flag("--standard"), significant = flag("--significant"), slow = flag("--slow")
        let untilEnded = flag("--until-ended")
        guard arguments.count == 2 else { fail("usage: geowake-test-subscriber CLIENT OUTPUT [options]") }
        let output = open(arguments[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard output >= 0 else { fail("cannot open \(arguments[1])") }
        do {
            let manager = try await LocationManager(clientID: arguments[0])
            if let regions {
                // The protocol takes an absolute path; after a restart the regions are monitored already.
                let path = regions.hasPrefix("/") ? regions : String(cString: getcwd(nil, 0)) + "/" + regions
                do {
                    try await manager.monitor(file: path)
                } catch GeoWakeError.rejected(_, "duplicateRegion", _) {}
            }
            if standard { try await manager.startUpdatingLocation() }
            if significant { try await manager.startSignificantChanges() }
            var handled = 0
            for try await event in manager.events {
                var object = event.raw.object ?? [:]
                object["seq"] = .number(Double(event.seq))
                var line = JSONValue.object(object).line
                line.append(UInt8(ascii: "\n"))
                _ = write(output, line, line.count)
                fsync(output)
                handled += 1
                if slow { usleep(50_000) }
                if handled == crashAfter { kill(getpid(), SIGKILL) }
                if handled == exitAfter { break }
                if untilEnded, case .status(let status) = event.kind, status.state == "ended" { break }
            }
            manager.stop()
        } catch {
            fail("\(error)")
        }
    }

    static func fail(_ message: String) -> Never {
        var line = Array("geowake-test-subscriber: \(message)\n".utf8)
        _ = write(STDERR_FILENO, &line, line.count)
        exit(1)
    }
}
