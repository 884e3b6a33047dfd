#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import GPSDTestSupport

/// `geowake fixes` on live sources, run as the built executable.
@Suite struct LiveFixesCommandTests {
    static let geowake = builtExecutable("geowake")

    static func lines(_ path: String) -> [String] {
        ((try? readFile(path)) ?? []).split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("geowake fixes gpsd://HOST:PORT prints contract lines until SIGINT, then exits 0 and gpsd releases the device")
    func streamsFromGPSDUntilInterrupted() async throws {
        try #require(access(Self.geowake, X_OK) == 0, "geowake is not built at \(Self.geowake)")
        let directory = TemporaryDirectory()
        let feeder = try NMEAFeeder(contentsOf: gpsdTraces + "/ublox-neo-m9n-nmea.log", delay: .milliseconds(3))
        let daemon = try await GPSDaemon(feedPort: feeder.port, logPath: directory.file("gpsd.log"))
        let out = directory.file("out"), err = directory.file("err")
        let command = try ChildProcess([Self.geowake, "fixes", "gpsd://127.0.0.1:\(daemon.port)"], outputPath: out, errorPath: err)

        try #require(await eventually(within: .seconds(10)) { Self.lines(out).count >= 5 }, "\(Self.lines(err))")
        #expect(await command.interrupt(SIGINT, timeout: .seconds(5)) == 0)
        let printed = Self.lines(out)
        #expect(printed[0].hasPrefix("{\"time\":\"2020-07-11T22:37:4"), "\(printed[0])")
        #expect(printed.allSatisfy { $0.contains("\"lat\":") && $0.contains("\"lon\":") && $0.contains("\"mode\":") })
        let states = Self.lines(err)
        #expect(states.first == "geowake fixes: gpsd 127.0.0.1:\(daemon.port): connecting")
        #expect(states.filter { $0.hasSuffix(": fixing") }.count == 1, "\(states)")
        #expect(states.last?.hasSuffix(": idle") == true, "\(states)")
        #expect(daemon.log().contains(") released"))
    }

    @Test("geowake fixes /dev/tty --baud N prints the device's fixes until SIGTERM, then exits 0")
    func streamsFromSerialUntilTerminated() async throws {
        try #require(access(Self.geowake, X_OK) == 0, "geowake is not built at \(Self.geowake)")
        let directory = TemporaryDirectory()
        let device = try PseudoTerminal()
        let out = directory.file("out"), err = directory.file("err")
        let command = try ChildProcess([Self.geowake, "fixes", device.slavePath, "--baud", "9600"], outputPath: out, errorPath: err)

        try #require(await eventually(within: .seconds(5)) { device.isSlaveOpen })
        try device.write(try readFile(gpsdTraces + "/bu353s4.log"))
        try #require(await eventually(within: .seconds(5)) { Self.lines(out).count >= 25 }, "\(Self.lines(err))")
        try await Task.sleep(for: .milliseconds(300))   // the last epoch goes out after the line goes quiet
        #expect(await command.interrupt(SIGTERM, timeout: .seconds(5)) == 0)
        let fromFile = directory.file("file")
        let replay = try ChildProcess([Self.geowake, "fixes", gpsdTraces + "/bu353s4.log"], outputPath: fromFile,
                                      errorPath: directory.file("file.err"))
        #expect(await replay.exitStatus(within: .seconds(5)) == 0)
        #expect(Self.lines(out) == Self.lines(fromFile), "the device's fixes differ from the same log read as a file")
        #expect(!device.isSlaveOpen, "the tty is still open")
    }

    @Test("--baud with an unsupported rate fails with one line naming the rates")
    func refusesUnsupportedBaudRate() async throws {
        try #require(access(Self.geowake, X_OK) == 0, "geowake is not built at \(Self.geowake)")
        let directory = TemporaryDirectory()
        let out = directory.file("out"), err = directory.file("err")
        let command = try ChildProcess([Self.geowake, "fixes", "/dev/null", "--baud", "12345"], outputPath: out, errorPath: err)
        #expect(await command.exitStatus(within: .seconds(5)) != 0)
        #expect(Self.lines(err).first?.contains("unsupported baud rate 12345") == true, "\(Self.lines(err))")
    }
}
