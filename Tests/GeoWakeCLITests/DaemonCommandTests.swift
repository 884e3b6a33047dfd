import Foundation
import Testing
import TestSupport

@Suite struct DaemonCommandTests {
    @Test("Without a daemon, each daemon command prints one error line naming the socket, and fails",
          arguments: [["status"], ["clients"], ["subscriptions", "org.example.x"], ["disable", "org.example.x"],
                      ["enable", "org.example.x"]])
    func noDaemonIsOneErrorLine(_ command: [String]) throws {
        let socket = "/nonexistent-geowake/geowaked.sock"
        let run = try CommandLineTests.run(command + ["--socket", socket])
        #expect(run.status != 0)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.contains(socket) == true)
        #expect(run.output.isEmpty)
    }

    @Test("Without --socket and no daemon anywhere, the one error line names every socket tried and how to start one",
          .enabled(if: access("/run/geowake/geowaked.sock", F_OK) != 0, "a system geowaked runs on this machine"))
    func noDaemonNamesThePathsTried() throws {
        let runtime = TemporaryDirectory()
        let run = try CommandLineTests.run(["status"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(run.status != 0)
        #expect(run.output.isEmpty)
        #expect(run.errorLines.count == 1, "\(run.errorLines)")
        let line = try #require(run.errorLines.first)
        #expect(line.hasPrefix("Error: no geowaked is running: tried \(runtime.path)/geowake/geowaked.sock, /run/geowake/geowaked.sock"),
                "\(line)")
        #expect(line.contains("`geowaked --source gpsd://localhost:2947`") && line.contains("GEOWAKE_SOCKET"), "\(line)")
    }
}
