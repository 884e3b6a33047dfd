import Foundation
import Testing
import TestSupport

/// The real `geowaked` given what it cannot use: one line on standard error naming the option or file and the cause,
/// no usage lines, and an exit status (sysexits) by kind of failure.
@Suite struct DaemonStartupErrorTests {
    struct Outcome {
        var status: Int32
        var errorLines: [String]
    }

    /// Runs geowaked with `arguments` (after `--socket` and `--state` in `directory`, which `arguments` may override),
    /// as `uid` when given; fails when it is still running after 10 s.
    static func geowaked(_ arguments: [String], in directory: String, asUID uid: Int? = nil) throws -> Outcome {
        let process = Process()
        let own = ["--socket", directory + "/run/geowaked.sock", "--state", directory + "/lib/geowake.sqlite"]
        if let uid {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", DaemonProcess.binary] + own + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: DaemonProcess.binary)
            process.arguments = own + arguments
        }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("geowaked \(arguments) was still running after 10 s")
        }
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Outcome(status: process.terminationStatus, errorLines: errors.split(separator: "\n").map(String.init))
    }

    static func freshDirectory() -> String {
        let path = NSTemporaryDirectory() + "geowaked-errors-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let root = DaemonProcess.root

    /// Arguments (`DIR` stands for the test's directory), what the one line must contain, and the exit status.
    static let cases: [([String], [String], Int32)] = [
        (["--socket", "/etc/passwd/x.sock"], ["--socket /etc/passwd/x.sock", "/etc/passwd is not a directory"], 73),
        (["--state", "/etc/passwd/geowake.sqlite"], ["--state /etc/passwd/geowake.sqlite", "/etc/passwd is not a directory"], 73),
        (["--state", "DIR"], ["--state DIR", "cannot open the store: Is a directory"], 73),
        (["--state", "DIR/garbage.sqlite"], ["--state DIR/garbage.sqlite", "not a geowake store"], 65),
        (["--socket", "/proc/geowaked.sock"], ["--socket /proc/geowaked.sock", "cannot listen there"], 73),
        (["--socket", "/tmp/" + String(repeating: "s", count: 120) + ".sock"], ["longer than 106 bytes"], 64),
        (["--source", "trace:\(root)/README.md"], ["\(root)/README.md: nothing recognised: no fix"], 65),
        (["--source", "trace:DIR/no-such.nmea"], ["DIR/no-such.nmea: cannot open: No such file or directory"], 66),
        (["--beacon-source", "trace:DIR/no-such.jsonl"], ["--beacon-source: DIR/no-such.jsonl: cannot open"], 66),
        (["--beacon-source", "trace:\(root)/README.md"], ["--beacon-source: \(root)/README.md: nothing recognised"], 65),
        (["--source", "bogus"], ["--source must be gpsd://HOST:PORT", "not bogus"], 64),
        (["--durability", "sometimes"], ["--durability must be normal or full, not sometimes"], 64),
        (["--no-such-option"], ["Unknown option '--no-such-option'"], 64),
        // A negative number is the option's value, refused by the option's own check, not a missing value.
        (["--speed", "-1"], ["--speed must be a number >= 0"], 64),
        (["--budget", "-5"], ["--budget must be a number of seconds >= 0, not -5.0"], 64),
        (["--max-pending", "-1"], ["--max-pending must be at least 2"], 64),
        (["--baud", "-9600"], ["--baud must be a baud rate", "not -9600"], 64),
        (["--speed", "--baud", "4800"], ["The value '--baud' is invalid for '--speed <speed>'"], 64),
    ]

    @Test("Each unusable argument is one error line naming the option or file and the cause, with its sysexits status",
          arguments: cases)
    func unusableArgument(arguments: [String], mentions: [String], status: Int32) throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try String(repeating: "not a database ", count: 20).write(toFile: directory + "/garbage.sqlite", atomically: false, encoding: .utf8)
        let outcome = try Self.geowaked(arguments.map { $0.replacingOccurrences(of: "DIR", with: directory) }, in: directory)
        #expect(outcome.status == status, "\(outcome.errorLines)")
        #expect(outcome.errorLines.count == 1, "\(outcome.errorLines)")
        let line = try #require(outcome.errorLines.first)
        #expect(line.hasPrefix("Error: "))
        for text in mentions.map({ $0.replacingOccurrences(of: "DIR", with: directory) }) {
            #expect(line.contains(text), "\(line)")
        }
        #expect(!line.contains("NSCocoaErrorDomain") && !line.contains("SQLite error"), "\(line)")
    }

    @Test("A second daemon on a store in use exits 75 (try again later), naming the store")
    func storeInUse() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let outcome = try Self.geowaked(["--socket", daemon.directory + "/second.sock", "--state", daemon.directory + "/geowake.sqlite"],
                                        in: daemon.directory)
        #expect(outcome.status == 75)
        #expect(outcome.errorLines == ["Error: the store \(daemon.directory)/geowake.sqlite is in use by another process (geowaked holds it exclusively while it runs)"])
    }

    @Test("A second daemon on a socket another one listens at exits 75 (try again later), and the first still answers there")
    func socketInUse() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let outcome = try Self.geowaked(["--socket", daemon.socket, "--state", daemon.directory + "/second.sqlite"], in: daemon.directory)
        #expect(outcome.status == 75)
        #expect(outcome.errorLines == ["Error: --socket \(daemon.socket): another geowaked listens there"])
        let client = try RawClient(daemon.socket)
        try client.hello()
        #expect(try client.request("status")["ok"] as? Bool == true)
    }

    @Test("A store where the user may not write exits 77 (no permission), naming the path and the system's reason",
          .enabled(if: getuid() == 0, "switching to another uid needs root"))
    func noPermission() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o755)
        let outcome = try Self.geowaked(["--socket", directory + "/nobody.sock", "--state", "/root/geowake-test-\(getpid())/geowake.sqlite"],
                                        in: directory, asUID: 65534)
        #expect(outcome.status == 77, "\(outcome.errorLines)")
        #expect(outcome.errorLines == ["Error: --state /root/geowake-test-\(getpid())/geowake.sqlite: cannot create its directory /root/geowake-test-\(getpid()): Permission denied"])
        // The directory exists but is not the user's: SQLite says only "unable to open database file".
        let store = "/var/lib/geowake-test-\(getpid()).sqlite"
        let existing = try Self.geowaked(["--socket", directory + "/nobody.sock", "--state", store], in: directory, asUID: 65534)
        #expect(existing.status == 77, "\(existing.errorLines)")
        #expect(existing.errorLines == ["Error: --state \(store): cannot open the store: Permission denied"])
    }
}
