import Foundation
import TestSupport

/// A real `geowake-test-subscriber` process talking to a test daemon; what its handler saw is in `output`.
final class SubscriberProcess {
    static let binary = builtExecutable("geowake-test-subscriber")

    private let process = Process()
    let output: String

    init(client: String, daemon: DaemonProcess, output: String, options: [String] = []) throws {
        self.output = output
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [client, output] + options
        var environment = ProcessInfo.processInfo.environment
        environment["GEOWAKE_SOCKET"] = daemon.socket
        process.environment = environment
        process.standardError = FileHandle(forWritingAtPath: daemon.log)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits up to `seconds` for the process to exit; whether it did with status 0.
    func finished(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return false }
        return process.terminationStatus == 0
    }

    /// The events the handler saw, in the order it saw them.
    static func handled(_ path: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}

/// Events as comparable text: sorted keys, `seq` and the daemon clock's `time` of status events left out.
func canonical(_ events: [[String: Any]]) -> [String] {
    events.map { event in
        var event = event
        event["seq"] = nil
        event["epoch"] = nil
        if event["event"] as? String == "status" { event["time"] = nil }
        return String(decoding: try! JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
    }
}

/// The first place two event lists differ, described briefly (nil when equal), so a failure does not print thousands of lines.
func firstDifference(_ a: [String], _ b: [String]) -> String? {
    guard a != b else { return nil }
    let i = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    return "\(a.count) vs \(b.count) events; first difference at \(i): \(i < a.count ? a[i] : "end") vs \(i < b.count ? b[i] : "end")"
}
