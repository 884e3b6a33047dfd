#if canImport(Glibc)
import Glibc
#endif
import GeoWake

/// A parcel van's tracker: tells the depot when the van arrives and leaves, and logs large moves.
/// Run geowaked first (see README's tutorial), then `geowake-example [LAT LON RADIUS]`.
@main
struct ParcelTracker {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst().compactMap(Double.init)
        let depot = arguments.count == 3
            ? Region.circle(id: "depot", latitude: arguments[0], longitude: arguments[1], radius: arguments[2])
            : Region.circle(id: "depot", latitude: 52.5258, longitude: 13.3745, radius: 300)
        do {
            let manager = try await LocationManager(clientID: "org.example.parcel-tracker",
                                                    relaunch: .executable(CommandLine.arguments[0]))
            if let reason = manager.launchReason { say("launched for \(reason)") }
            do {
                try await manager.monitor(depot)
            } catch GeoWakeError.rejected(_, .duplicateRegion, _) {
                // Monitored since an earlier run (a relaunch, or started again by hand): the daemon kept it.
            }
            try await manager.startSignificantChanges()
            for try await event in manager.events {
                switch event.kind {
                case .enter(let region): report("#\(event.seq) arrived at \(region.id)", at: event.fix)
                case .exit(let region): report("#\(event.seq) left \(region.id)", at: event.fix)
                case .significantChange(let fix): report("#\(event.seq) moved", at: fix)
                case .status(let status): say("#\(event.seq) receiver \(status.state) \(status.message ?? "")")
                case .dwell, .location, .visit: break
                }
            }
        } catch {
            var line = Array("geowake-example: \(error)\n".utf8)
            _ = write(STDERR_FILENO, &line, line.count)
            exit(1)
        }
    }

    /// Each line goes out at once, also into a file or a pipe (stdout's buffer would hold it until exit).
    static func say(_ text: String) {
        var line = Array((text + "\n").utf8)
        _ = write(STDOUT_FILENO, &line, line.count)
    }

    static func report(_ text: String, at fix: Fix?) {
        guard let fix else { return say(text) }
        say("\(text) at \(fix.coordinate.latitude), \(fix.coordinate.longitude)")
    }
}
