#if canImport(Glibc)
import Glibc
#endif
import GeoWake
import GeoWakeCore

/// The integration tests' subscriber: `geowake-test-subscriber CLIENT OUTPUT [--regions FILE] [--standard]
/// [--significant] [--crash-after N] [--slow] [--exit-after N] [--until-ended]`. Appends each handled event's object,
/// with its seq, as a JSON line to OUTPUT (flushed before the handler returns, so a line means the body ran).
/// `--until-ended` leaves after handling the trace's `ended` status event.
/// With `--relaunch` it registers its own command line for relaunching (`--no-force-quit-relaunch`,
/// `--location-background`, `--bluetooth-background`, `--exits-on-suspend` set the options; `--range UUID` ranges) and first appends a `started` line: launch reason, pid, and the
/// Uid/Gid/Groups lines of /proc/self/status. `--register-only` subscribes, then exits 0; `--crash-on-launch`
/// exits 3 when launched by the daemon; `--begin-task` opens a background task when launched, whose expiration
/// handler appends an `expired` line and ends it (`--ignore-expiration`: leaves it open). `--stamp` adds the
/// CLOCK_MONOTONIC second at which each handler began (`handledAt`), and a line with the seconds just before
/// subscribing and once subscribed (`subscribing`, `subscribedAt`), for Benchmarks/wake.sh. `--fetch SECONDS` asks for
/// background fetches (`Fetching.swift`, `--fetch-results`).
@main
struct TestSubscriber {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let relaunchArguments = arguments.filter { $0 != "--register-only" }
        func option(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(i...i + 1) }
            return arguments[i + 1]
        }
        func flag(_ name: String) -> Bool {
            guard let i = arguments.firstIndex(of: name) else { return false }
            arguments.remove(at: i)
            return true
        }
        let regions = option("--regions")
        let rangedUUID = option("--range")
        let fetchInterval = option("--fetch").flatMap(Double.init)
        let fetchResults = option("--fetch-results")
        let crashAfter = option("--crash-after").flatMap(Int.init)
        let exitAfter = option("--exit-after").flatMap(Int.init)
        let standard = flag("--standard"), significant = flag("--significant"), slow = flag("--slow")
        let untilEnded = flag("--until-ended")
        let relaunch = flag("--relaunch"), noForceQuitRelaunch = flag("--no-force-quit-relaunch")
        let locationBackground = flag("--location-background"), registerOnly = flag("--register-only")
        let exitsOnSuspend = flag("--exits-on-suspend"), bluetoothBackground = flag("--bluetooth-background")
        let crashOnLaunch = flag("--crash-on-launch"), beginTask = flag("--begin-task")
        let ignoreExpiration = flag("--ignore-expiration"), stamp = flag("--stamp")
        guard arguments.count == 2 else { fail("usage: geowake-test-subscriber CLIENT OUTPUT [options]") }
        let output = open(arguments[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o666)
        guard output >= 0 else { fail("cannot open \(arguments[1])") }
        do {
            let manager = try await LocationManager(
                clientID: arguments[0],
                relaunch: relaunch ? .executable(CommandLine.arguments[0], arguments: relaunchArguments) : .never,
                options: LaunchOptions(relaunchAfterForceQuit: !noForceQuitRelaunch, locationInBackground: locationBackground,
                                       bluetoothInBackground: bluetoothBackground, exitsOnSuspend: exitsOnSuspend))
            if relaunch { append(startedLine(manager.launchReason), to: output) }
            if let fetchInterval {
                try await Fetching.start(manager, interval: fetchInterval, results: fetchResults, output: output,
                                         outputPath: arguments[1])
            }
            if crashOnLaunch && manager.launchReason != nil { exit(3) }
            if beginTask && manager.launchReason != nil {
                let box = TaskBox()
                box.task = try await manager.beginBackgroundTask {
                    append(.object(["expired": .number(Double(box.task?.id ?? 0))]), to: output)
                    guard !ignoreExpiration, let task = box.task else { return }
                    Task { try? await manager.endBackgroundTask(task) }
                }
                append(.object(["task": .number(Double(box.task!.id)), "budgetLeft": .number(box.task!.budgetLeft ?? -1)]), to: output)
            }
            if let regions {
                // The protocol takes an absolute path; after a restart the regions are monitored already.
                let path = regions.hasPrefix("/") ? regions : String(cString: getcwd(nil, 0)) + "/" + regions
                do {
                    try await manager.monitor(file: path)
                } catch GeoWakeError.rejected(_, "duplicateRegion", _) {}
            }
            if let rangedUUID { try await manager.startRangingBeacons(satisfying: BeaconIdentityConstraint(uuid: rangedUUID)) }
            let subscribing = monotonic()
            if standard { try await manager.startUpdatingLocation() }
            if significant { try await manager.startSignificantChanges() }
            if stamp && (standard || significant) {
                append(.object(["subscribing": .number(subscribing), "subscribedAt": .number(monotonic())]), to: output)
            }
            if registerOnly {
                manager.stop()
                exit(0)
            }
            var handled = 0
            for try await event in manager.events {
                let handledAt = monotonic()
                var object = event.raw.object ?? [:]
                if stamp { object["handledAt"] = .number(handledAt) }
                object["seq"] = .number(Double(event.seq))
                object["epoch"] = .number(Double(event.epoch))
                var line = JSONValue.object(object).line
                line.append(UInt8(ascii: "\n"))
                _ = write(output, line, line.count)
                fsync(output)
                handled += 1
                if slow { usleep(50_000) }
                if handled == crashAfter { kill(getpid(), SIGKILL) }
                if handled == exitAfter { break }
                if untilEnded, case .status(let status) = event.kind, status.state == "ended" { break }
            }
            manager.stop()
        } catch {
            fail("\(error)")
        }
    }

    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func append(_ object: JSONValue, to output: Int32) {
        var line = object.line
        line.append(UInt8(ascii: "\n"))
        _ = write(output, line, line.count)
        fsync(output)
    }

    /// The launch reason and the credentials the kernel gives this process, for the tests to check.
    static func startedLine(_ reason: LaunchReason?) -> JSONValue {
        var fields: [String: JSONValue] = ["started": .number(Double(getpid()))]
        switch reason {
        case nil: fields["reason"] = .null
        case .location: fields["reason"] = "location"
        case .significantChange: fields["reason"] = "significant-change"
        case .region: fields["reason"] = "region"
        case .visit: fields["reason"] = "visit"
        case .beacon: fields["reason"] = "beacon"
        case .fetch: fields["reason"] = "fetch"
        case .other(let value): fields["reason"] = .string(value)
        }
        if let file = fopen("/proc/self/status", "r") {
            defer { fclose(file) }
            var buffer = [CChar](repeating: 0, count: 4096)
            while fgets(&buffer, Int32(buffer.count), file) != nil {
                let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                for key in ["Uid", "Gid", "Groups"] where line.hasPrefix(key + ":") {
                    fields[key] = .string(line.dropFirst(key.count + 1).split(whereSeparator: \.isWhitespace).joined(separator: " "))
                }
            }
        }
        return .object(fields)
    }

    static func fail(_ message: String) -> Never {
        var line = Array("geowake-test-subscriber: \(message)\n".utf8)
        _ = write(STDERR_FILENO, &line, line.count)
        exit(1)
    }
}

/// Lets the expiration handler see the task it belongs to.
final class TaskBox: @unchecked Sendable {
    var task: BackgroundTask?
}
