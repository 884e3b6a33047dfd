import Foundation
import Testing

/// Budgets, suspension, background tasks and background modes through a real geowaked, checked from /proc.
@Suite(.serialized) struct DaemonSuspensionTests {
    /// Starts the daemon on `fixes` with `budget`, has the client launched by the fix at 0.5 s and waits until its
    /// budget has run out and it is stopped; returns its output file and pid.
    func launchUntilSuspended(_ daemon: DaemonProcess, _ client: String, _ fixes: [(Double, Bool)],
                              budget: String) throws -> (output: String, pid: pid_t) {
        let trace = daemon.directory + "/trace.json", output = daemon.directory + "/out.jsonl"
        Wake.writeTrace(trace, fixes)
        try daemon.start(trace: trace, speed: 1, options: ["--budget", budget])
        try Wake.startByHand(daemon, client, output: output, ["--relaunch", "--standard", "--register-only"]).waitUntilExit()
        #expect(Wake.eventually { Wake.launched(output).count == 1 })
        let pid = try Wake.launchedPID(output)
        #expect(Wake.eventually { Wake.state(pid) == "T" }, "not suspended after its budget")
        return (output, pid)
    }

    /// Launched for a fix at 0.5 s, suspended after its 2 s budget, thawed for the fix at 8 s.
    @Test func aLaunchedSubscriberIsSuspendedAfterItsBudgetAndThawedForTheNextEvent() throws {
        let daemon = DaemonProcess()
        let (output, pid) = try launchUntilSuspended(daemon, "org.example.sleepy", [(0, false), (0.5, false), (8, false), (9, false)], budget: "2")
        defer { Wake.killAll([output]) }
        let handled = Wake.events(output).count
        #expect(try Wake.status(daemon, "org.example.sleepy")["app"] as? String == "suspended")

        #expect(Wake.eventually { Wake.events(output).count > handled }, "not thawed for the next event")
        #expect(Wake.launched(output).count == 1, "relaunched instead of thawed")
        #expect(Wake.state(pid) != nil)
        #expect(Wake.eventually { Wake.state(pid) == "T" }, "not suspended again")
    }

    /// A client launched by the fix at 1 s that opens a background task at once, on a 1 s budget with tasks up to
    /// 3 s and the warning 1 s before their end; returns its output file and pid once it has the expiring notice.
    func launchWithTask(_ daemon: DaemonProcess, _ client: String, _ flags: [String]) throws -> (output: String, pid: pid_t) {
        let trace = daemon.directory + "/trace.json", output = daemon.directory + "/out.jsonl"
        Wake.writeTrace(trace, [(0, false), (1, false), (30, false)])
        try daemon.start(trace: trace, speed: 1, options: ["--budget", "1", "--background-task-limit", "3", "--expiration-warning", "1"])
        try Wake.startByHand(daemon, client, output: output,
                             ["--relaunch", "--standard", "--begin-task", "--register-only"] + flags).waitUntilExit()
        #expect(Wake.eventually { Wake.launched(output).count == 1 })
        let pid = try Wake.launchedPID(output)
        #expect(Wake.eventually { Wake.lines(output).contains { $0["task"] != nil } })
        #expect(Wake.eventually { Wake.lines(output).contains { $0["expired"] != nil } }, "the expiration handler did not run")
        return (output, pid)
    }

    /// The handler runs at about 2 s, so the task kept the process running past its 1 s budget; the handler ends
    /// the task and the process is suspended.
    @Test func aBackgroundTaskExtendsTheBudgetAndItsExpirationHandlerRunsBeforeSuspension() throws {
        let daemon = DaemonProcess()
        let (output, pid) = try launchWithTask(daemon, "org.example.task", [])
        defer { Wake.killAll([output]) }
        #expect(Wake.eventually { Wake.state(pid) == "T" }, "not suspended once the task ended")
        let status = try Wake.status(daemon, "org.example.task")
        #expect(status["app"] as? String == "suspended")
        #expect(status["backgroundTasks"] as? Int == 0)
    }

    @Test func aSubscriberThatIgnoresItsExpirationIsTerminated() throws {
        let daemon = DaemonProcess()
        let (output, pid) = try launchWithTask(daemon, "org.example.stubborn", ["--ignore-expiration"])
        defer { Wake.killAll([output]) }
        #expect(Wake.eventually { Wake.state(pid) == nil }, "still running after overrunning its task time")
        #expect(Wake.eventually { Wake.currentStatus(daemon, "org.example.stubborn")?["lastExit"] as? String == "killed by signal 15" })
        #expect(try Wake.status(daemon, "org.example.stubborn")["app"] as? String == "notRunning")
    }

    /// Two clients on 1 s budgets and fixes 2.5 s apart: the one with the location background mode is never
    /// stopped while its updates run, the other is suspended between fixes.
    @Test func aLocationBackgroundModeClientKeepsRunningWhileUpdatesFlow() throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json"
        let mover = daemon.directory + "/mover.jsonl", sleeper = daemon.directory + "/sleeper.jsonl"
        Wake.steadyTrace(trace, step: 2.5, until: 15)
        try daemon.start(trace: trace, speed: 1, options: ["--budget", "1"])
        defer { Wake.killAll([mover, sleeper]) }
        try Wake.startByHand(daemon, "org.example.mover", output: mover,
                             ["--relaunch", "--standard", "--location-background", "--register-only"]).waitUntilExit()
        try Wake.startByHand(daemon, "org.example.sleeper", output: sleeper, ["--relaunch", "--standard", "--register-only"]).waitUntilExit()
        #expect(Wake.eventually { Wake.launched(mover).count == 1 && Wake.launched(sleeper).count == 1 })
        let moverPID = try Wake.launchedPID(mover)
        let sleeperPID = try Wake.launchedPID(sleeper)
        var moverStopped = false, sleeperStopped = false
        let until = Date().addingTimeInterval(6)
        while Date() < until {
            if Wake.state(moverPID) == "T" { moverStopped = true }
            if Wake.state(sleeperPID) == "T" { sleeperStopped = true }
            usleep(50_000)
        }
        #expect(!moverStopped, "the location background mode client was suspended")
        #expect(sleeperStopped, "the other client was never suspended")
        #expect(try Wake.status(daemon, "org.example.mover")["backgroundLocation"] as? Bool == true)
        #expect(try Wake.status(daemon, "org.example.sleeper")["backgroundLocation"] as? Bool == false)
    }

    /// A client that opted out of background execution is terminated when its budget ends, never stopped, and
    /// launched again for its next event.
    @Test func aClientThatExitsOnSuspendIsTerminatedAtTheEndOfItsBudgetAndRelaunchedForItsNextEvent() throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json", output = daemon.directory + "/out.jsonl"
        Wake.steadyTrace(trace, step: 3, until: 15)
        try daemon.start(trace: trace, speed: 1, options: ["--budget", "1", "--termination-grace", "1"])
        defer { Wake.killAll([output]) }
        try Wake.startByHand(daemon, "org.example.quitter", output: output,
                             ["--relaunch", "--standard", "--exits-on-suspend", "--register-only"]).waitUntilExit()
        #expect(Wake.eventually { Wake.launched(output).count == 1 })
        let first = try Wake.launchedPID(output)
        var stopped = false
        let until = Date().addingTimeInterval(4)
        while Date() < until, Wake.state(first) != nil {
            if Wake.state(first) == "T" { stopped = true }
            usleep(20_000)
        }
        #expect(!stopped, "it was suspended")
        #expect(Wake.state(first) == nil, "it ended once its budget was over")
        #expect(Wake.eventually { Wake.launched(output).count == 2 }, "launched again for the next fix")
        #expect(try Wake.status(daemon, "org.example.quitter")["exitsOnSuspend"] as? Bool == true)
    }

    /// The daemon is SIGKILLed while its subscriber is stopped; after its restart the subscriber runs again,
    /// reconnects, and has every event exactly once.
    @Test func aDaemonKilledWhileASubscriberIsSuspendedThawsItOnRestartAndNothingIsLost() throws {
        let daemon = DaemonProcess()
        let (output, pid) = try launchUntilSuspended(daemon, "org.example.durable",
                                                     [(0, false), (0.5, false), (6, false), (6.5, false), (12, false)], budget: "1.5")
        defer { Wake.killAll([output]) }

        daemon.stop(signal: SIGKILL)
        usleep(300_000)
        #expect(Wake.state(pid) == "T", "the process should still be stopped while the daemon is away")
        try daemon.start(trace: daemon.directory + "/trace.json", speed: 1, options: ["--budget", "1.5"])
        #expect(Wake.eventually(5) { Wake.state(pid) != "T" }, "left stopped after the daemon's restart")
        #expect(Wake.eventually { Wake.currentStatus(daemon, "org.example.durable")?["connected"] as? Bool == true })
        #expect(Wake.eventually { Wake.events(output).contains { ($0["event"] as? String) == "status" } }, "the trace did not reach its end")
        let lastSeq = try #require(try Wake.status(daemon, "org.example.durable")["lastSeq"] as? Int)
        let seqs = Wake.events(output).compactMap { $0["seq"] as? Int }
        #expect(seqs == Array(1...lastSeq), "events lost or repeated: \(seqs)")
        #expect(Wake.launched(output).count == 1, "relaunched instead of thawed")
    }

    /// A daemon stopped with SIGTERM continues the processes it stopped, so none waits stopped while it is away.
    @Test func aDaemonStoppedCleanlyLeavesNoProcessStopped() throws {
        let daemon = DaemonProcess()
        let (output, pid) = try launchUntilSuspended(daemon, "org.example.calm", [(0, false), (0.5, false), (30, false)], budget: "1")
        defer { Wake.killAll([output]) }
        daemon.stop(signal: SIGTERM)
        #expect(Wake.eventually(5) { Wake.state(pid) != "T" }, "left stopped by a daemon that stopped")
        #expect(Wake.state(pid) != nil, "the process should outlive the daemon")
    }

    /// With room for one suspended client, the second suspension terminates the least recently used of the two.
    @Test func aboveTheSuspendedLimitTheLeastRecentlyUsedClientIsTerminated() throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json"
        let first = daemon.directory + "/first.jsonl", second = daemon.directory + "/second.jsonl"
        Wake.writeTrace(trace, [(0, false), (0.5, false), (30, false)])
        try daemon.start(trace: trace, speed: 1, options: ["--budget", "1", "--max-suspended", "1"])
        defer { Wake.killAll([first, second]) }
        for (client, output) in [("org.example.a", first), ("org.example.b", second)] {
            try Wake.startByHand(daemon, client, output: output, ["--relaunch", "--standard", "--register-only"]).waitUntilExit()
        }
        #expect(Wake.eventually { Wake.launched(first).count == 1 && Wake.launched(second).count == 1 })
        let pids = [try Wake.launchedPID(first), try Wake.launchedPID(second)]
        #expect(Wake.eventually { pids.contains { Wake.state($0) == nil } && pids.contains { Wake.state($0) == "T" } },
                "not one terminated and one suspended")
        let apps = Set(["org.example.a", "org.example.b"].compactMap { Wake.currentStatus(daemon, $0)?["app"] as? String })
        #expect(apps == ["suspended", "notRunning"])
    }
}
