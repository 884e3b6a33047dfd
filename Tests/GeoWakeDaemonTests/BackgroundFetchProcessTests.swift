import Foundation
import Testing

/// Background fetch through a real geowaked and real test subscribers (`--fetch`, `Fetching.swift`), on second-long
/// intervals: launch, thaw, the results' effect on the next fetch, and who is not fetched.
@Suite(.serialized) struct BackgroundFetchProcessTests {
    static let client = "org.example.fetcher"

    /// Starts the daemon and registers the subscriber by hand with `interval` and `results`; it exits at once, so
    /// every fetch needs a launch or a thaw. Returns its output file.
    func register(_ daemon: DaemonProcess, interval: String, results: String, options: [String],
                  flags: [String] = []) throws -> String {
        let output = daemon.directory + "/out.jsonl"
        try daemon.start(source: nil, options: ["--budget", "1"] + options)
        try Wake.startByHand(daemon, Self.client, output: output,
                             ["--relaunch", "--fetch", interval, "--fetch-results", results, "--register-only"] + flags).waitUntilExit()
        return output
    }

    static func fetches(_ output: String) -> [[String: Any]] { Wake.lines(output).filter { $0["fetched"] != nil } }

    /// Minimum 1 s: launched for the first fetch, then thawed; noData stretches the gap to about 2 s, then 4 s;
    /// newData brings it back to about 1 s. Between fetches the process is stopped.
    @Test func aSubscriberIsLaunchedForItsFetchThenThawedLaterAfterNoDataAndSoonerAfterNewData() throws {
        let daemon = DaemonProcess()
        let output = try register(daemon, interval: "1", results: "noData,noData,newData,noData", options: ["--fetch-budget", "5"])
        defer { Wake.killAll([output]) }
        #expect(Wake.eventually(30) { Self.fetches(output).count >= 4 }, "four fetches did not come")
        let fetches = Self.fetches(output)
        try #require(fetches.count >= 4)
        let launched = Wake.launched(output)
        #expect(launched.count == 1 && launched.first?["reason"] as? String == "fetch", "launched \(launched)")
        let pid = try Wake.launchedPID(output)
        #expect(fetches.allSatisfy { $0["fetched"] as? Int == Int(pid) }, "a later fetch relaunched instead of thawing")
        #expect(fetches.allSatisfy { ($0["budgetLeft"] as? Double ?? 0) > 4 }, "the fetch budget is not 5 s")
        let at = fetches.map { $0["at"] as? Double ?? 0 }
        let gaps = zip(at.dropFirst(), at).map { $0 - $1 }
        #expect(gaps[0] >= 1.95, "after noData the interval is 2 s: \(gaps)")
        #expect(gaps[1] >= 3.95 && gaps[1] > gaps[0] + 1.5, "after a second noData it is 4 s: \(gaps)")
        #expect(gaps[2] >= 0.95 && gaps[2] < gaps[0], "after newData it is back at 1 s: \(gaps)")

        #expect(Wake.eventually(5) { Wake.state(pid) == "T" }, "not suspended after its result")
        let status = try #require(try Wake.cli(daemon, ["status"]).first { $0["client"] as? String == Self.client })
        let fetch = try #require(status["backgroundFetch"] as? [String: Any], "geowake status shows no backgroundFetch")
        #expect(fetch["minimumInterval"] as? Double == 1 && fetch["interval"] as? Double == 2)
        #expect(fetch["lastResult"] as? String == "noData" && fetch["running"] as? Bool == false)
        #expect(status["lastLaunchReason"] as? String == "fetch" && status["app"] as? String == "suspended")
    }

    /// A fetch that never reports: when its 1.5 s run out the process is suspended and the fetch counts as failed,
    /// which quadruples the interval.
    @Test func aFetchWithoutAResultIsFailedAndItsProcessSuspendedWhenTheFetchBudgetEnds() throws {
        let daemon = DaemonProcess()
        let output = try register(daemon, interval: "1", results: "none", options: ["--fetch-budget", "1.5"])
        defer { Wake.killAll([output]) }
        #expect(Wake.eventually(15) { Self.fetches(output).count == 1 })
        let pid = try Wake.launchedPID(output)
        #expect(Wake.eventually(5) { Wake.state(pid) == "T" }, "not suspended when the fetch's time ran out")
        let fetch = try #require(try Wake.status(daemon, Self.client)["backgroundFetch"] as? [String: Any])
        #expect(fetch["lastResult"] as? String == "failed" && fetch["interval"] as? Double == 4)
    }

    /// Opted out of background execution, the client is terminated after each result and launched anew, with
    /// reason fetch, for the next fetch.
    @Test func aClientThatExitsOnSuspendIsLaunchedAnewForEachFetch() throws {
        let daemon = DaemonProcess()
        let output = try register(daemon, interval: "1", results: "newData", options: ["--termination-grace", "1"],
                                  flags: ["--exits-on-suspend"])
        defer { Wake.killAll([output]) }
        #expect(Wake.eventually(20) { Wake.launched(output).count >= 2 && Self.fetches(output).count >= 2 },
                "not launched again for the next fetch")
        let launched = Wake.launched(output)
        #expect(launched.allSatisfy { $0["reason"] as? String == "fetch" }, "\(launched)")
        let pids = launched.compactMap { $0["started"] as? Int }
        #expect(Set(pids).count == pids.count, "a process was reused: \(pids)")
        #expect(Wake.state(pid_t(pids[0])) == nil, "the first fetch's process still runs")
        #expect(Set(Self.fetches(output).prefix(2).compactMap { $0["fetched"] as? Int }) == Set(pids.prefix(2)),
                "each fetch in a process of its own")
    }

    @Test func badFetchRequestsGetOneClearErrorEach() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let raw = try RawClient.registered(daemon, as: "org.example.nolaunch")
        let zero = try raw.request("setBackgroundFetch", ["minimumInterval": 0])
        #expect(errorCode(zero) == "badRequest")
        #expect((zero["error"] as? [String: Any])?["message"] as? String
                == "\"minimumInterval\" must be a number of seconds from 1 to 604800, or null")
        let noLaunch = try raw.request("setBackgroundFetch", ["minimumInterval": 60])
        #expect(errorCode(noLaunch) == "badRequest")
        #expect(((noLaunch["error"] as? [String: Any])?["message"] as? String)?.contains("launch") == true)
        #expect(errorCode(try raw.request("completeBackgroundFetch", ["result": "noData"])) == "noFetch")
        #expect(errorCode(try raw.request("completeBackgroundFetch", ["result": "maybe"])) == "badRequest")
        #expect(try raw.request("setBackgroundFetch", ["minimumInterval": NSNull()])["ok"] as? Bool == true, "null stops, always allowed")
    }

    /// Disabled, the client is not fetched; enabled, it is; unregistered (the explicit stop), never again.
    @Test func aDisabledClientIsNotFetchedUntilEnabledAndAnUnregisteredOneNeverAgain() throws {
        let daemon = DaemonProcess()
        let output = try register(daemon, interval: "2", results: "newData", options: [])
        defer { Wake.killAll([output]) }
        _ = try Wake.cli(daemon, ["disable", Self.client])
        usleep(5_000_000)
        #expect(Wake.started(output).count == 1 && Self.fetches(output).isEmpty, "a disabled client was fetched")

        _ = try Wake.cli(daemon, ["enable", Self.client])
        #expect(Wake.eventually(15) { Self.fetches(output).count >= 1 }, "not fetched once enabled")
        #expect(Wake.launched(output).first?["reason"] as? String == "fetch")

        let raw = try RawClient.registered(daemon, as: Self.client)   // takes over from the launched process
        #expect(try raw.request("unregister")["ok"] as? Bool == true)
        let launches = Wake.launched(output).count
        usleep(5_000_000)
        #expect(Wake.launched(output).count == launches, "an unregistered client was launched again")
    }
}
