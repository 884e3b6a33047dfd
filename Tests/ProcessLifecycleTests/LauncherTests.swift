import Foundation
import Testing
import Glibc
import ProcessLifecycle
import GeoWakeProtocol

@Suite(.serialized) struct LauncherTests {
    @Test func theChildGetsExactlyTheMinimalEnvironment() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let process = try Launcher.spawn(request(["/usr/bin/env"], in: scratch, reason: .significantChange))
        #expect(waitForExit(process) == .exited(0))
        let names = scratch.read("client.log").split(separator: "\n").map { $0.prefix { $0 != "=" } }
        let expected = ["GEOWAKE_LAUNCH_REASON", "GEOWAKE_SOCKET", "PATH", "HOME", "USER"] + (getenv("LANG") == nil ? [] : ["LANG"])
        #expect(names.map(String.init).sorted() == expected.sorted())
        let log = scratch.read("client.log")
        #expect(log.contains("GEOWAKE_LAUNCH_REASON=significant-change\n"))
        #expect(log.contains("GEOWAKE_SOCKET=\(scratch.path)/geowake.sock\n"))
        #expect(log.contains("PATH=/usr/local/bin:/usr/bin:/bin\n"))
    }

    @Test func aProcessStartedByHandHasNoLaunchReason() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let process = try Launcher.spawn(request(["/usr/bin/env"], in: scratch, reason: nil))
        _ = waitForExit(process)
        #expect(!scratch.read("client.log").contains("GEOWAKE_LAUNCH_REASON"))
    }

    @Test func theChildLeadsItsOwnSessionAndProcessGroup() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let process = try Launcher.spawn(request(["/bin/sleep", "30"], in: scratch))
        defer { process.kill(); _ = waitForExit(process) }
        let ids = groupAndSession(process.pid)
        #expect(ids?.pgrp == process.pid)
        #expect(ids?.session == process.pid)
    }

    @Test func stdinIsDevNullOutputGoesToTheLogAndNoOtherDescriptorIsInherited() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let leaked = open("/dev/zero", O_RDONLY)  // not close-on-exec: the launcher must still close it
        defer { close(leaked) }
        // Looked at from here while the child sleeps: a shell listing its own descriptors races with its pipes.
        let process = try Launcher.spawn(request(["/bin/sh", "-c", "echo oops >&2; exec sleep 30"], in: scratch))
        defer { process.kill(); _ = waitForExit(process) }
        for _ in 0..<500 where (try? String(contentsOfFile: "/proc/\(process.pid)/comm", encoding: .utf8)) != "sleep\n" {
            usleep(10_000)
        }
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd")
        #expect(descriptors.sorted() == ["0", "1", "2"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.pid)/fd/0") == "/dev/null")
        #expect(scratch.read("client.log") == "oops\n")
    }

    @Test func asRootItLaunchesAsTheRegisteringUserWithExactlyItsGroups() throws {
        try #require(geteuid() == 0, "needs root")
        let scratch = Scratch()
        defer { scratch.remove() }
        let nobody = try LaunchAccount.lookUp(uid: 65534, gid: 65534)
        let process = try Launcher.spawn(request(["/bin/sleep", "30"], in: scratch, account: nobody))
        defer { process.kill(); _ = waitForExit(process) }
        #expect(eventually { statusLine(process.pid, "Name") == "sleep" })
        #expect(statusLine(process.pid, "Uid") == "65534 65534 65534 65534")
        #expect(statusLine(process.pid, "Gid") == "65534 65534 65534 65534")
        #expect(statusLine(process.pid, "Groups") == nobody.groups.map(String.init).joined(separator: " "))
        #expect(nobody.groups == [65534])
    }

    @Test func aChildThatCannotExecIsReportedNotLeftRunning() {
        let scratch = Scratch()
        defer { scratch.remove() }
        #expect(throws: LaunchError.child(step: "exec", errno: ENOENT)) {
            try Launcher.spawn(request(["/nonexistent/client"], in: scratch))
        }
    }

    @Test func anUnwritableLogIsAClearError() {
        let scratch = Scratch()
        defer { scratch.remove() }
        var bad = request(["/bin/true"], in: scratch)
        bad.logPath = "/nonexistent/client.log"
        #expect(throws: LaunchError.logFile(path: "/nonexistent/client.log", errno: ENOENT)) {
            try Launcher.spawn(bad)
        }
    }
}
