import Foundation
import Testing
import TestSupport

/// A subscriber started when no daemon runs: the library's one error names where it looked and what to start.
@Suite struct NoDaemonSubscriberTests {
    @Test("A subscriber with no daemon running gets one error naming the user and system sockets and how to start geowaked",
          .enabled(if: access("/run/geowake/geowaked.sock", F_OK) != 0, "a system geowaked runs on this machine"))
    func subscriberWithoutDaemonNamesThePathsTried() throws {
        let runtime = TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SubscriberProcess.binary)
        process.arguments = ["org.example.alone", runtime.file("events.jsonl")]
        process.environment = ["XDG_RUNTIME_DIR": runtime.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let lines = errors.split(separator: "\n")
        #expect(lines.count == 1, "\(errors)")
        #expect(lines.first?.hasPrefix("geowake-test-subscriber: no geowaked is running: tried "
                                       + "\(runtime.path)/geowake/geowaked.sock, /run/geowake/geowaked.sock") == true, "\(errors)")
        #expect(errors.contains("`geowaked --source gpsd://localhost:2947`"), "\(errors)")
    }
}
