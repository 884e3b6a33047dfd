import Foundation
import Testing

/// A user starting a subscriber by hand while the daemon's launched instance of it runs in the background brings it
/// to the foreground: the hand-started process registers, the launched one ends, and the events it had not
/// acknowledged reach the new one.
@Suite(.serialized) struct TakeOverTests {
    @Test func aHandStartedSubscriberTakesOverFromTheLaunchedOneWhichEnds() throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json", output = daemon.directory + "/out.jsonl"
        Wake.steadyTrace(trace, step: 0.5, until: 20)
        try daemon.start(trace: trace, speed: 1)
        defer { Wake.killAll([output]) }
        try Wake.startByHand(daemon, "org.example.front", output: output, ["--relaunch", "--standard", "--register-only"]).waitUntilExit()
        #expect(Wake.eventually { Wake.launched(output).count == 1 && Wake.events(output).count >= 2 })
        let launched = try Wake.launchedPID(output)

        let byHand = try Wake.startByHand(daemon, "org.example.front", output: output, ["--standard"])
        defer { if byHand.isRunning { kill(byHand.processIdentifier, SIGKILL) } }
        #expect(Wake.eventually { Wake.state(launched) == nil }, "the launched instance ended")
        #expect(Wake.eventually { Wake.currentStatus(daemon, "org.example.front")?["app"] as? String == "running" })
        let handled = Wake.events(output).count
        #expect(Wake.eventually { Wake.events(output).count > handled + 2 }, "the hand-started process gets the events")
        #expect(byHand.isRunning, "it was not refused as clientBusy")
        usleep(1_500_000)
        #expect(Wake.launched(output).count == 1, "nothing launched again while the hand-started one runs")
        let log = (try? String(contentsOfFile: daemon.log, encoding: .utf8)) ?? ""
        #expect(!log.contains("clientBusy") && !log.contains("another connection is registered"))
    }
}
