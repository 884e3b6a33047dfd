import Foundation
import Testing

/// A power cut under `--durability normal` can take the store back to an earlier commit, after events past it were
/// delivered and handled. The next run issues their sequence numbers again, in a greater store epoch: user code gets
/// those new events, never silenced as resends of what it saw.
@Suite(.serialized) struct PowerCutTests {
    /// Copies the store as it is on disk at one instant, the daemon stopped: what a power cut then leaves (SQLite drops
    /// a half-written WAL tail when it opens the file).
    static func snapshot(_ daemon: DaemonProcess) throws -> String {
        let copy = daemon.directory + "/snapshot"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        daemon.send(SIGSTOP)
        defer { daemon.send(SIGCONT) }
        for name in ["geowake.sqlite", "geowake.sqlite-wal"] where FileManager.default.fileExists(atPath: daemon.directory + "/" + name) {
            try FileManager.default.copyItem(atPath: daemon.directory + "/" + name, toPath: copy + "/" + name)
        }
        return copy
    }

    static func restore(_ copy: String, into daemon: DaemonProcess) throws {
        for name in ["geowake.sqlite", "geowake.sqlite-wal"] {
            try? FileManager.default.removeItem(atPath: daemon.directory + "/" + name)
            if FileManager.default.fileExists(atPath: copy + "/" + name) {
                try FileManager.default.copyItem(atPath: copy + "/" + name, toPath: daemon.directory + "/" + name)
            }
        }
    }

    @Test func eventsAfterAPowerCutRollbackReachUserCodeThoughTheirSeqsWereSeenBefore() throws {
        let daemon = DaemonProcess()
        try daemon.start(speed: 100)
        try EndToEndTests.subscribe(daemon)
        let output = daemon.directory + "/handled.jsonl"
        let subscriber = try SubscriberProcess(client: EndToEndTests.client, daemon: daemon, output: output, options: ["--until-ended"])
        usleep(1_000_000)
        let copy = try Self.snapshot(daemon)
        // Events must be handled past the snapshot's commits before the cut, however slow the machine is: with
        // the subscriber's lag of a few events, 100 more handled reach well past what the copy holds.
        let handledAtSnapshot = SubscriberProcess.handled(output).count
        #expect(Wake.eventually(30) { SubscriberProcess.handled(output).count >= handledAtSnapshot + 100 },
                "the subscriber did not handle 100 more events after the snapshot")
        daemon.stop(signal: SIGKILL)
        let before = SubscriberProcess.handled(output)
        try Self.restore(copy, into: daemon)

        // The restarted daemon runs another trace: its events are new, and their seqs start inside those just handled.
        let line = StraightLineTrace(points: (0..<30).map { ($0, 10.0 * Double($0)) })
        try daemon.start(trace: line.write(to: daemon.directory), speed: 20)
        #expect(subscriber.finished(within: 60), "the subscriber handled the end of the second trace; log: \(daemon.log)")
        let handled = SubscriberProcess.handled(output)
        let after = handled.dropFirst(before.count)
        let lineFixes = after.filter { $0["event"] as? String == "location" && $0["lat"] as? Double == StraightLineTrace.latitude }
        #expect(lineFixes.count == line.points.count, "every fix of the second trace reached user code")

        let numbers = handled.map { ($0["epoch"] as? Int ?? -1, $0["seq"] as? Int ?? -1) }
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "(epoch, seq) strictly increasing: each event once")
        let lastBefore = try #require(numbers[before.count - 1] as (Int, Int)?)
        let firstAfter = try #require(after.first.map { ($0["epoch"] as? Int ?? -1, $0["seq"] as? Int ?? -1) })
        #expect(firstAfter.1 <= lastBefore.1, "the rollback made the store issue seqs user code had seen: \(lastBefore) then \(firstAfter)")
    }
}
