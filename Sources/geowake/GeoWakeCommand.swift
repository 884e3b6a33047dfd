#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

@main
struct GeoWakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geowake",
        abstract: "Replay GPS traces through geowake's location services, and work with region files.",
        subcommands: [FixesCommand.self, LocateCommand.self, RegionsCommand.self, ReplayCommand.self, BeaconsCommand.self, BenchCommand.self, FleetCommand.self,
                      StatusCommand.self, ClientsCommand.self, SubscriptionsCommand.self, DisableCommand.self, EnableCommand.self]
    )

    /// As ArgumentParser's, but a failure prints one line, as the contract wants for every bad input,
    /// instead of the error followed by help and usage lines.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }
            let text = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            let line = text.hasPrefix("Error: ") ? text : "Error: " + text
            var bytes = Array((line + "\n").utf8)
            _ = write(STDERR_FILENO, &bytes, bytes.count)
            Glibc.exit(code.rawValue)
        }
    }
}
