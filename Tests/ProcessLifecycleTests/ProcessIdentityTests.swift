import Testing
import Glibc
import ProcessLifecycle

@Suite(.serialized) struct ProcessIdentityTests {
    @Test func theExitStatusIsRecorded() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let process = try Launcher.spawn(request(["/bin/sh", "-c", "exit 3"], in: scratch))
        #expect(waitForExit(process) == .exited(3))
        #expect(!process.isAlive)
    }

    @Test func suspendStopsTheWholeGroupAndThawResumesIt() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let process = try Launcher.spawn(request(["/bin/sh", "-c", "/bin/sleep 30 & echo $!; wait"], in: scratch))
        defer { process.kill(); _ = waitForExit(process) }
        #expect(eventually { !scratch.read("client.log").isEmpty })
        let child = try #require(pid_t(scratch.read("client.log").split(separator: "\n").first ?? ""))
        let sleeper = try #require(ProcessIdentity.of(child))
        #expect(process.suspend())
        #expect(eventually { process.isStopped && sleeper.isStopped })
        #expect(process.thaw())
        #expect(eventually { !process.isStopped && !sleeper.isStopped })
        #expect(process.isAlive)
    }

    @Test func terminateEndsEvenASuspendedGroup() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let process = try Launcher.spawn(request(["/bin/sleep", "30"], in: scratch))
        process.suspend()
        #expect(eventually { process.isStopped })
        #expect(process.terminate())
        #expect(waitForExit(process) == .signaled(SIGTERM))
    }

    @Test func killEndsAProcessThatIgnoresTerm() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let process = try Launcher.spawn(request(["/bin/sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"], in: scratch))
        #expect(eventually { scratch.read("client.log") == "ready\n" })
        process.terminate()
        usleep(200_000)
        #expect(process.isAlive)
        process.kill()
        #expect(waitForExit(process) == .signaled(SIGKILL))
    }

    @Test func anotherProcessWithTheSamePidIsNeverSignalled() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let process = try Launcher.spawn(request(["/bin/sleep", "30"], in: scratch))
        defer { process.kill(); _ = waitForExit(process) }
        let impostor = ProcessIdentity(pid: process.pid, startTime: process.startTime + 1)
        #expect(!impostor.isAlive)
        #expect(!impostor.suspend())
        #expect(!impostor.kill())
        usleep(50_000)
        #expect(process.isAlive && !process.isStopped)
    }

    @Test func aReapedProcessIsNotSignalled() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let process = try Launcher.spawn(request(["/bin/true"], in: scratch))
        #expect(waitForExit(process) == .exited(0))
        #expect(!process.kill())
    }

    @Test func theStartTimeIsFieldTwentyTwoOfProcStat() throws {
        let own = try #require(ProcessIdentity.of(getpid()))
        let stat = readFile("/proc/self/stat")
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        #expect(String(fields[19]) == String(own.startTime))
    }
}
