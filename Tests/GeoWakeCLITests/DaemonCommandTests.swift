import Foundation
import Testing

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
}
