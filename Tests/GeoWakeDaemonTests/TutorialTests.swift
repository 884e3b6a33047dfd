import Foundation
import Testing
import TestSupport

/// README's tutorial ("Subscribing: the GeoWake library and the tutorial") as a user follows it: the very commands,
/// each in a terminal of its own (`TerminalProcess`), with the user daemon's default socket and store (only
/// `XDG_RUNTIME_DIR`, `XDG_STATE_HOME` and `HOME` point into a temporary directory), checked line by line.
@Suite(.serialized) struct TutorialTests {
    static let client = "org.example.parcel-tracker"
    /// What the example prints for the bundled drive, whichever process prints it. Where the `moved` lines fall
    /// depends on which fix the significant-change service saw first, and that on when the example subscribed (the
    /// trace runs meanwhile): their form is checked, the region and status lines exactly.
    static let drive = [
        "#1 moved at …", "#2 moved at …", "#3 moved at …", "#4 moved at …",
        "#5 arrived at depot at 52.526729833, 13.378512167",
        "#6 left depot at 52.525374667, 13.369941667",
        "#7 receiver ended the trace was replayed to its end",
    ]

    /// Whether `lines` are `expected` line for line, a `moved at …` line being any `moved at LAT, LON` in Berlin.
    static func same(_ lines: [String], _ expected: some Collection<String>) -> Bool {
        lines.count == expected.count && zip(lines, expected).allSatisfy { line, pattern in
            guard pattern.hasSuffix("moved at …") else { return line == pattern }
            return line.hasPrefix(pattern.dropLast()) && line.dropFirst(pattern.count - 1).wholeMatch(of: /52\.\d+, 13\.\d+/) != nil
        }
    }

    /// At README's speed (10x) the drive takes two minutes. The example is started, Ctrl-C'd after its first line,
    /// relaunched by the daemon in the background for the next event (its lines go to logs/), started again by hand
    /// (it takes over and prints the rest), and started once more after the drive: `receiver ended` at once. Then
    /// disable/enable print what README says, Ctrl-C stops the daemon (exit 0), and `--restart-trace` drives again.
    @Test func theTutorialPrintsWhatREADMESaysThroughCtrlCABackgroundRelaunchAndRestarts() throws {
        let user = try TutorialUser()
        defer { user.cleanUp() }
        var daemon = try user.terminal(["geowaked", "--source", "trace:traces/berlin-drive.nmea", "--speed", "10"])
        #expect(user.eventually(15, draining: [daemon]) { FileManager.default.fileExists(atPath: user.socket) },
                "geowaked did not listen at \(user.socket)")

        let first = try user.terminal(["geowake-example"])
        #expect(first.waitForLine(30, draining: [daemon]) { $0.hasPrefix("#1 ") } != nil, "no first line: \(first.lines)")
        user.controlCOnceAcknowledged(first, draining: daemon)
        let interrupted = try #require(first.waitForExit(10), "Ctrl-C did not stop the example")
        #expect(interrupted & 0x7f == SIGINT, "the example did not end by SIGINT: status \(interrupted)")
        #expect(Self.same(first.lines, Self.drive.prefix(1)), "first run: \(first.lines)")

        // Its next event (#2, about 30 s on) relaunches it in the background; wait until that one acknowledged it.
        let launched = user.eventually(90, draining: [daemon]) {
            user.log.contains { $0.hasPrefix("#2 ") } && (try? user.clients().first?["pending"] as? Int) == 0
        }
        #expect(launched, "not relaunched for #2: log \(user.log)")
        let log = user.log
        #expect(log.first == "launched for significant-change" && Self.same(Array(log.dropFirst()), Self.drive[1...1]),
                "the background instance's log: \(log)")
        let status = try #require(try user.geowake(["status"]).first { $0["client"] as? String == Self.client })
        #expect(status["lastLaunchReason"] as? String == "significant-change")
        let backgroundPID = status["pid"] as? Int

        let second = try user.terminal(["geowake-example"])
        #expect(second.waitForLine(150, draining: [daemon]) { $0.contains("receiver ended") } != nil, "the drive did not end: \(second.lines)")
        #expect(Self.same(second.lines, Self.drive[2...]), "started again by hand: \(second.lines)")
        if let backgroundPID { #expect(kill(pid_t(backgroundPID), 0) != 0, "the background instance was not ended") }
        user.controlCOnceAcknowledged(second, draining: daemon)
        #expect(second.waitForExit(10) != nil)

        let third = try user.terminal(["geowake-example"])
        #expect(third.waitForLine(15, draining: [daemon]) { $0.hasPrefix("#8 ") } != nil)
        #expect(third.lines == ["#8 receiver ended the trace was replayed to its end"], "started after the drive")

        #expect(try user.geowakeText(["disable", Self.client]) == [#"{"client":"org.example.parcel-tracker","disabled":true}"#])
        #expect(try user.geowakeText(["enable", Self.client]) == [#"{"client":"org.example.parcel-tracker","disabled":false}"#])
        third.typeControlC()
        #expect(third.waitForExit(10) != nil)

        daemon.typeControlC()
        let stopped = try #require(daemon.waitForExit(15), "Ctrl-C did not stop geowaked")
        #expect(stopped == 0, "geowaked did not exit 0 after Ctrl-C: status \(stopped)")
        daemon = try user.terminal(["geowaked", "--source", "trace:traces/berlin-drive.nmea", "--speed", "10", "--restart-trace"])
        #expect(user.eventually(15, draining: [daemon]) { FileManager.default.fileExists(atPath: user.socket) })
        let again = try user.terminal(["geowake-example"])
        // The drive starts north of the depot, at 52.550 N. The stored subscription restarts the trace at once, so
        // the first event may launch the example in the background (logs/) before this one registers.
        #expect(user.eventually(30, draining: [daemon, again]) { (user.log + again.lines).contains { $0.contains(" moved at 52.550") } },
                "--restart-trace did not drive again: \(again.lines), log \(user.log)")
    }
}

/// The tutorial's user: a home, runtime and state directory of their own, the commands run from the package root
/// in terminals, and at the end every process that carries the directory in its environment (those geowaked
/// launched too) killed.
final class TutorialUser {
    let root: String
    let environment: [String: String]
    private var terminals: [TerminalProcess] = []

    init() throws {
        var template = Array("/tmp/geowake-tutorial-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ProtocolTestError("mkdtemp failed") }
        root = String(cString: made)
        for directory in ["run", "state", "home"] {
            try FileManager.default.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        environment = ["PATH": "/usr/bin:/bin", "HOME": root + "/home", "XDG_RUNTIME_DIR": root + "/run",
                       "XDG_STATE_HOME": root + "/state", "LANG": "C.UTF-8", "TERM": "dumb"]
    }

    var socket: String { root + "/run/geowake/geowaked.sock" }

    /// The background instance's output: `logs/UID-CLIENT.log` beside the store.
    var log: [String] {
        let path = root + "/state/geowake/logs/\(getuid())-\(TutorialTests.client).log"
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// `.build/debug/NAME` as README writes it, when that is the build under test; its absolute path otherwise.
    func program(_ name: String) -> String {
        let relative = ".build/debug/" + name
        return Self.resolved(packageRoot + "/" + relative) == Self.resolved(builtExecutable(name)) ? relative : builtExecutable(name)
    }

    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Runs `NAME ARGS…` in a new terminal from the package root.
    func terminal(_ command: [String]) throws -> TerminalProcess {
        let process = try TerminalProcess([program(command[0])] + command.dropFirst(), environment: environment,
                                          directory: packageRoot)
        terminals.append(process)
        return process
    }

    /// `geowake ARGS` to its end (at most 20 s); its lines as printed.
    func geowakeText(_ arguments: [String]) throws -> [String] {
        let command = try terminal(["geowake"] + arguments)
        let status = try #require(command.waitForExit(20), "geowake \(arguments) did not end")
        try #require(status == 0, "geowake \(arguments) failed: \(command.lines)")
        return command.lines
    }

    /// The same, each line read as a JSON object.
    func geowake(_ arguments: [String]) throws -> [[String: Any]] {
        try geowakeText(arguments).compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// `geowake clients`.
    func clients() throws -> [[String: Any]] { try geowake(["clients"]) }

    /// Polls `condition` every 200 ms for up to `seconds`, reading the terminals in `draining` meanwhile.
    /// Ctrl-C once the daemon holds no event of the example unacknowledged. The ack goes out as the loop body
    /// returns, just after its line: a Ctrl-C before it reaches the daemon would (rightly) have that event delivered
    /// again to the next instance, and the lines the test expects are those of a user who interrupts after it.
    func controlCOnceAcknowledged(_ terminal: TerminalProcess, draining daemon: TerminalProcess) {
        #expect(eventually(10, draining: [daemon, terminal]) { (try? clients().first?["pending"] as? Int) == 0 },
                "events left unacknowledged: \((try? clients()) ?? [])")
        terminal.typeControlC()
    }

    func eventually(_ seconds: Double, draining: [TerminalProcess], _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            for terminal in draining { terminal.read(for: 0) }
            usleep(200_000)
        }
        return condition()
    }

    func cleanUp() {
        terminals.removeAll()   // each kills its process group
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), pid != getpid(), Self.environment(of: pid).contains(root) else { continue }
            kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// /proc/PID/environ as text ("" when unreadable).
    static func environment(of pid: pid_t) -> String {
        let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
