import Foundation
import GPSDTestSupport
import Testing
import TestSupport

/// A three-node cluster, two worker processes and 200 devices replaying the bundled Berlin drive at 60×,
/// with one part killed (`kill -9`) mid-stream. What must hold after: every device's events arrived once,
/// in order, and equal `geowake replay` of the trace.
@Suite(.serialized, .timeLimit(.minutes(3))) struct FleetFailoverTests {
    static let devices = 200
    static let trace = "traces/berlin-drive.nmea"

    /// Starts the cluster, the region set and two workers, and waits until the workers share the partitions.
    static func fleet(_ directory: TemporaryDirectory) async throws -> (NATSCluster, ChildProcess, ChildProcess) {
        let cluster = try NATSCluster(nodes: 3)
        try await cluster.ready()
        let put = try FleetRun.geowake(["fleet", "regions", "put", "regions/berlin-1k.geojson"] + cluster.fleetOptions)
        #expect(put.status == 0, "\(put.error)")
        let first = try FleetRun.worker("w1", cluster: cluster, log: directory.file("w1.log"))
        let second = try FleetRun.worker("w2", cluster: cluster, log: directory.file("w2.log"))
        let shared = await eventually(within: .seconds(20)) {
            FleetRun.partitions(heldIn: directory.file("w1.log")).count == 4
                && FleetRun.partitions(heldIn: directory.file("w2.log")).count == 4
        }
        #expect(shared, "the two workers did not settle on 4 partitions each")
        return (cluster, first, second)
    }

    static func publish(_ cluster: NATSCluster, _ directory: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess([FleetRun.geowake, "fleet", "publish", trace, "--device", "van", "--devices", "\(devices)",
                          "--speed", "60"] + cluster.fleetOptions, outputPath: directory.file("publish.log"))
    }

    static func expectEveryDeviceGotReplayOnce(_ cluster: NATSCluster, _ directory: TemporaryDirectory) async throws {
        let expected = try FleetRun.replayLines(trace)
        #expect(expected.count > 10)
        let events = try await FleetRun.events(cluster, durable: "check", expected: devices * expected.count, timeout: .seconds(90))
        #expect(events.count == devices)
        var wrong: [String] = []
        for i in 0..<devices where events["van-\(i)"] != expected { wrong.append("van-\(i) (\(events["van-\(i)"]?.count ?? 0) events)") }
        #expect(wrong.isEmpty, "devices whose events differ from replay (expected \(expected.count) each): \(wrong.prefix(5))")
        if !wrong.isEmpty {
            for log in ["w1.log", "w2.log", "publish.log"] {
                print("\(log):", FleetRun.lines(of: directory.file(log)).filter { !$0.contains("checkpointed") }.suffix(20).joined(separator: "\n"))
            }
        }
    }

    @Test("A worker killed mid-stream: the other takes its partitions over within 10 s, and every device's events arrive exactly once, in order, equal to replay")
    func workerKilledMidStream() async throws {
        let directory = TemporaryDirectory()
        let (cluster, first, second) = try await Self.fleet(directory)
        let publisher = try Self.publish(cluster, directory)
        try await Task.sleep(for: .seconds(6))
        let orphaned = FleetRun.partitions(heldIn: directory.file("w1.log"))
        #expect(publisher.isRunning, "the kill should come mid-stream")
        let killedAt = ContinuousClock.now
        first.kill(signal: SIGKILL)
        let takenOver = await eventually(within: .seconds(20)) {
            FleetRun.partitions(heldIn: directory.file("w2.log")).isSuperset(of: orphaned)
        }
        let takeover = ContinuousClock.now - killedAt
        #expect(takenOver, "w2 did not take over \(orphaned)")
        #expect(takeover < .seconds(10), "takeover took \(takeover)")
        print("fleet: partitions \(orphaned.sorted()) taken over \(takeover) after kill -9")
        #expect(await publisher.exitStatus(within: .seconds(60)) == 0, "\(FleetRun.lines(of: directory.file("publish.log")))")
        try await Self.expectEveryDeviceGotReplayOnce(cluster, directory)
        #expect(second.isRunning)
    }

    @Test("A NATS node killed mid-stream: the clients fail over, and every device's events arrive exactly once, in order, equal to replay")
    func natsNodeKilledMidStream() async throws {
        let directory = TemporaryDirectory()
        let (cluster, first, second) = try await Self.fleet(directory)
        let publisher = try Self.publish(cluster, directory)
        try await Task.sleep(for: .seconds(6))
        #expect(publisher.isRunning, "the kill should come mid-stream")
        cluster.kill(0)
        let published = await publisher.exitStatus(within: .seconds(120)) == 0
        #expect(published, "\(FleetRun.lines(of: directory.file("publish.log")))")
        if !published { print(cluster.logTails()) }
        try await Self.expectEveryDeviceGotReplayOnce(cluster, directory)
        #expect(first.isRunning && second.isRunning)
    }
}
