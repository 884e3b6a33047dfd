import Foundation
import Testing
import GeoWakeProtocol

/// Relaunching through a real geowaked: real subscriber processes, real signals, the kernel's view from /proc.
@Suite(.serialized) struct DaemonRelaunchTests {
    @Test func aSubscriberKilledBeforeItsRegionIsEnteredIsRelaunchedForTheRegionAndGetsTheEnterOnce() throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json", region = daemon.directory + "/region.geojson"
        let output = daemon.directory + "/out.jsonl"
        Wake.writeTrace(trace, (0...5).map { (Double($0), false) } + (6...9).map { (Double($0), true) })
        Wake.writeRegion(region)
        try daemon.start(trace: trace, speed: 1)
        defer { Wake.killAll([output]) }
        let byHand = try Wake.startByHand(daemon, "org.example.region", output: output, ["--relaunch", "--regions", region])
        // Killed once its region is monitored: the source runs from then on, and the entry comes 6 s later.
        #expect(Wake.eventually { Wake.currentStatus(daemon, "org.example.region")?["regions"] as? Int == 1 })
        kill(byHand.processIdentifier, SIGKILL)
        byHand.waitUntilExit()

        #expect(Wake.eventually { Wake.events(output).contains { $0["event"] as? String == "enter" } })
        usleep(500_000)
        let launched = Wake.launched(output)
        #expect(launched.count == 1)
        #expect(launched.first?["reason"] as? String == "region")
        #expect(Wake.events(output).filter { $0["event"] as? String == "enter" }.count == 1)
        let status = try Wake.status(daemon, "org.example.region")
        #expect(status["lastLaunchReason"] as? String == "region")
        #expect(status["app"] as? String == "background")
    }

    /// A process the daemon launched, then SIGKILLed by someone else: relaunched on its next event, unless the
    /// client said not to.
    @Test(arguments: [true, false])
    func aLaunchedSubscriberKilledByTheUserIsRelaunchedOnlyWithRelaunchAfterForceQuitOn(_ relaunch: Bool) throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json", output = daemon.directory + "/out.jsonl"
        Wake.steadyTrace(trace, step: 0.5, until: 12)
        try daemon.start(trace: trace, speed: 1)
        defer { Wake.killAll([output]) }
        var flags = ["--relaunch", "--standard"]
        if !relaunch { flags.append("--no-force-quit-relaunch") }
        try Wake.startByHand(daemon, "org.example.track", output: output, flags + ["--register-only"]).waitUntilExit()

        #expect(Wake.eventually { Wake.launched(output).count == 1 })
        let first = try #require(Wake.launched(output).first)
        #expect(first["reason"] as? String == "location")
        #expect(Wake.eventually { Wake.events(output).count >= 2 })
        kill(try Wake.launchedPID(output), SIGKILL)
        if relaunch {
            #expect(Wake.eventually { Wake.launched(output).count == 2 })
            #expect(Wake.launched(output).last?["reason"] as? String == "location")
        } else {
            #expect(Wake.eventually { Wake.currentStatus(daemon, "org.example.track")?["lastExit"] as? String == "killed by signal 9" })
            sleep(2)
            #expect(Wake.launched(output).count == 1)
            let status = try Wake.status(daemon, "org.example.track")
            #expect(status["app"] as? String == "notRunning")
            #expect(status["relaunchAfterForceQuit"] as? Bool == false)
        }
        let seqs = Wake.events(output).compactMap { $0["seq"] as? Int }
        #expect(Set(seqs).count == seqs.count || relaunch, "an event handled twice without a relaunch in between")
    }

    @Test func afterGeowakeDisableTheLaunchedSubscriberIsStoppedAndNotRelaunched() throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json", output = daemon.directory + "/out.jsonl"
        Wake.steadyTrace(trace, step: 0.5, until: 12)
        try daemon.start(trace: trace, speed: 1)
        defer { Wake.killAll([output]) }
        try Wake.startByHand(daemon, "org.example.track", output: output, ["--relaunch", "--standard", "--register-only"]).waitUntilExit()
        #expect(Wake.eventually { Wake.launched(output).count == 1 && Wake.events(output).count >= 1 })
        let pid = try Wake.launchedPID(output)

        _ = try Wake.cli(daemon, ["disable", "org.example.track"])
        #expect(Wake.eventually { Wake.state(pid) == nil }, "the disabled client's process still runs")
        sleep(2)
        #expect(Wake.launched(output).count == 1)
        let status = try Wake.status(daemon, "org.example.track")
        #expect(status["disabled"] as? Bool == true)
        #expect(status["app"] as? String == "notRunning")
    }

    @Test func aSubscriberThatCrashesOnEveryLaunchIsThrottledNotSpawnedInALoop() throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json", output = daemon.directory + "/out.jsonl"
        Wake.steadyTrace(trace, step: 0.1, until: 8)
        try daemon.start(trace: trace, speed: 1, options: ["--crash-backoff", "2"])
        defer { Wake.killAll([output]) }
        try Wake.startByHand(daemon, "org.example.crash", output: output,
                             ["--relaunch", "--standard", "--crash-on-launch", "--register-only"]).waitUntilExit()
        #expect(Wake.eventually { Wake.launched(output).count >= 3 })
        sleep(5)
        // 80 fixes in 8 s: three quick crashes, then launches 2 s and 4 s apart at most.
        let launches = Wake.launched(output).count
        #expect((3...5).contains(launches), "\(launches) launches")
        let line = try #require(try Wake.cli(daemon, ["status"]).first { $0["client"] as? String == "org.example.crash" })
        #expect(line["crashes"] as? Int ?? 0 >= 3)
        #expect(line["lastExit"] as? String == "exited 3")
        #expect(line["lastLaunchReason"] as? String == "location")
        // Between launches (each crashes within milliseconds) the client waits out its backoff.
        #expect(line["app"] as? String == "crashLoop")
        #expect(line["backoff"] is Double)
    }

    /// `/bin/true` exits cleanly at once and never connects: without throttling it would be spawned for each of
    /// the 50 fixes; as a crash it is launched three times, then only after 2 s and 4 s of backoff.
    @Test func aLaunchCommandThatNeverConnectsIsThrottledThoughItExitsCleanly() throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json"
        Wake.steadyTrace(trace, step: 0.1, until: 5)
        try daemon.start(trace: trace, speed: 1, options: ["--crash-backoff", "2"])
        do {
            let client = try RawClient(daemon.socket)
            try client.hello()
            #expect(try client.request("register", ["client": "org.example.true", "launch": ["/bin/true"]])["ok"] as? Bool == true)
            #expect(try client.request("startStandard")["ok"] as? Bool == true)
        }
        sleep(6)
        let log = try String(contentsOfFile: daemon.directory + "/geowaked.log", encoding: .utf8)
        let launches = log.split(separator: "\n").filter { $0.contains("launched client") && $0.contains("org.example.true") }.count
        #expect((3...5).contains(launches), "\(launches) launches")
        let status = try Wake.status(daemon, "org.example.true")
        #expect(status["lastExit"] as? String == "exited 0")
        #expect(status["crashes"] as? Int ?? 0 >= 3)
    }
}
