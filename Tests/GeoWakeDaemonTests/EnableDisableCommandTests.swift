import Foundation
import Testing
import TestSupport

/// `geowake disable` and `enable` against a real daemon: each prints what it did as one JSON line.
@Suite struct EnableDisableCommandTests {
    /// `geowake ARGUMENTS --socket …`: exit status, standard output and standard error.
    static func geowake(_ daemon: DaemonProcess, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: builtExecutable("geowake"))
        process.arguments = arguments + ["--socket", daemon.socket]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    @Test("disable and enable each print one JSON line with the client and its new disabled state, as clients shows it")
    func disableAndEnablePrintTheNewState() throws {
        let daemon = DaemonProcess()
        try daemon.start(speed: 0)
        _ = try RawClient.registered(daemon, as: "org.example.switched")

        let disable = try Self.geowake(daemon, ["disable", "org.example.switched"])
        #expect(disable.status == 0, "\(disable.errors)")
        #expect(disable.output == #"{"client":"org.example.switched","disabled":true}"# + "\n")
        let listed = try Self.geowake(daemon, ["clients"])
        #expect(listed.output.contains(#""disabled":true"#), "\(listed.output)")

        let enable = try Self.geowake(daemon, ["enable", "org.example.switched"])
        #expect(enable.status == 0, "\(enable.errors)")
        #expect(enable.output == #"{"client":"org.example.switched","disabled":false}"# + "\n")
        #expect(try Self.geowake(daemon, ["clients"]).output.contains(#""disabled":false"#))
    }

    @Test("disable of a client the daemon does not know prints nothing on standard output and one error line")
    func disableOfAnUnknownClientPrintsOnlyTheError() throws {
        let daemon = DaemonProcess()
        try daemon.start(speed: 0)
        let run = try Self.geowake(daemon, ["disable", "org.example.nobody"])
        #expect(run.status != 0)
        #expect(run.output.isEmpty)
        #expect(run.errors.split(separator: "\n").count == 1 && run.errors.contains("unknownClient"), "\(run.errors)")
    }
}
