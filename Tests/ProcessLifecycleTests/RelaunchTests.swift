import Testing
import Glibc
import ProcessLifecycle

/// The state machine driving real processes, as the daemon will: its actions performed with the launcher.
@Suite(.serialized) struct RelaunchTests {
    @Test func aSubscriberKilledByTheUserIsRelaunchedOnItsNextEventWithTheReason() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        var life = AppLifecycle()
        life.register("a")
        let client = scratch.file("client", "#!/bin/sh\necho \"launched $GEOWAKE_LAUNCH_REASON\"\nexec /bin/sleep 30\n")
        try LaunchCommand([client]).validate(for: geteuid())

        func perform(_ actions: [LifecycleAction]) throws -> ProcessIdentity? {
            guard case .launch(_, let reason)? = actions.first else { return nil }
            return try Launcher.spawn(request([client], in: scratch, reason: reason))
        }

        let first = try #require(try perform(life.eventQueued(for: "a", reason: .region, at: at(0))))
        #expect(eventually { scratch.read("client.log") == "launched region\n" })
        _ = kill(first.pid, SIGKILL)
        let exit = try #require(waitForExit(first))
        #expect(try perform(life.exited("a", exit, at: at(20))) == nil)
        let second = try #require(try perform(life.eventQueued(for: "a", reason: .visit, at: at(30))))
        defer { second.kill(); _ = waitForExit(second) }
        #expect(eventually { scratch.read("client.log") == "launched region\nlaunched visit\n" })
        #expect(second.pid != first.pid && second.isAlive)
    }

    @Test func aSuspendedSubscriberIsStoppedAndThawedForTheNextEvent() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        var life = AppLifecycle()
        life.register("a")
        #expect(life.eventQueued(for: "a", reason: .beacon, at: at(0)) == [.launch(client: "a", reason: .beacon)])
        let process = try Launcher.spawn(request(["/bin/sleep", "30"], in: scratch, reason: .beacon))
        defer { process.kill(); _ = waitForExit(process) }
        #expect(life.advance(to: at(10)) == [.suspend(client: "a")])
        process.suspend()
        #expect(eventually { process.stat?.state == "T" })
        #expect(life.eventQueued(for: "a", reason: .region, at: at(20)) == [.thaw(client: "a")])
        process.thaw()
        #expect(eventually { process.isAlive && !process.isStopped })
    }
}
