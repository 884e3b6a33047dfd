import Foundation
import Testing
import TestSupport

/// What the wake tests share: generated traces around one circular region, the real test subscriber started
/// by hand, its output file read back, and the kernel's view of a process.
enum Wake {
    static let subscriber = builtExecutable("geowake-test-subscriber")
    static let cli = builtExecutable("geowake")

    /// A gpsd JSON trace with one fix per (seconds after the start, inside the region?).
    static func writeTrace(_ path: String, _ fixes: [(Double, Bool)]) {
        let lines = fixes.map { offset, inside -> String in
            let ms = Int((offset * 1000).rounded())
            let time = String(format: "2026-01-01T%02d:%02d:%02d.%03dZ", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
            let lat = inside ? 52.5 : 52.51
            return #"{"class":"TPV","mode":3,"time":"\#(time)","lat":\#(lat),"lon":13.4,"eph":5.0}"#
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// Fixes every `step` seconds from 0 through `until`, all outside the region.
    static func steadyTrace(_ path: String, step: Double, until: Double) {
        writeTrace(path, stride(from: 0, through: until, by: step).map { ($0, false) })
    }

    static func writeRegion(_ path: String) {
        let json = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"depot","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"radius":100}}]}"#
        _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
    }

    /// Starts the subscriber as the user would (no launch reason), with the daemon's socket in its environment.
    @discardableResult
    static func startByHand(_ daemon: DaemonProcess, _ client: String, output: String, _ flags: [String],
                            prefix: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prefix.first ?? subscriber)
        process.arguments = Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [subscriber]) + [client, output] + flags
        process.environment = ["GEOWAKE_SOCKET": daemon.socket, "PATH": "/usr/bin:/bin"]
        process.standardError = FileHandle(forWritingAtPath: daemon.directory + "/geowaked.log")
        try process.run()
        return process
    }

    /// The subscriber's output lines as objects.
    static func lines(_ output: String) -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: output, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func started(_ output: String) -> [[String: Any]] { lines(output).filter { $0["started"] != nil } }

    /// The processes the daemon launched (a launch reason in their started line).
    static func launched(_ output: String) -> [[String: Any]] { started(output).filter { $0["reason"] is String } }

    /// The pid of the first process the daemon launched.
    static func launchedPID(_ output: String) throws -> pid_t {
        pid_t(try #require(launched(output).first?["started"] as? Int, "no process was launched"))
    }

    static func events(_ output: String) -> [[String: Any]] { lines(output).filter { $0["event"] != nil } }

    static func pids(_ output: String) -> [pid_t] { started(output).compactMap { ($0["started"] as? Int).map(pid_t.init) } }

    /// The scheduler state letter from /proc (`T` stopped), nil when the process is gone or a zombie.
    static func state(_ pid: pid_t) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state == "Z" ? nil : state
    }

    /// Polls `condition` every 20 ms for up to `seconds`.
    static func eventually(_ seconds: Double = 15, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// The daemon's `clients` entry for `client` (of the caller's uid).
    static func status(_ daemon: DaemonProcess, _ client: String) throws -> [String: Any] {
        try #require(currentStatus(daemon, client), "no status for \(client)")
    }

    /// The same, nil (and no test issue) while the daemon does not know the client yet, for polling.
    static func currentStatus(_ daemon: DaemonProcess, _ client: String) -> [String: Any]? {
        guard let raw = try? RawClient(daemon.socket) else { return nil }
        guard raw.receive()?["type"] as? String == "hello", (try? raw.request("hello", ["protocol": 1]))?["ok"] as? Bool == true,
              let reply = try? raw.request("clients") else { return nil }
        let clients = (reply["result"] as? [String: Any])?["clients"] as? [[String: Any]] ?? []
        return clients.first { $0["client"] as? String == client }
    }

    /// Runs `geowake ARGS --socket SOCKET` and returns its JSON lines.
    static func cli(_ daemon: DaemonProcess, _ arguments: [String]) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cli)
        process.arguments = arguments + ["--socket", daemon.socket]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "geowake \(arguments) failed")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Kills every process a test started or had launched, stopped or not.
    static func killAll(_ outputs: [String], _ processes: [Process] = []) {
        for pid in outputs.flatMap(pids) { kill(pid, SIGKILL) }
        for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
