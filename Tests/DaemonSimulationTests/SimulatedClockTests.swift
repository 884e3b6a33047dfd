import Foundation
import Testing
@testable import DaemonSimulation

extension SimulatedDisk {
    /// The daemon's logic over simulated hours, in a fraction of a second: the real daemon and store on the simulated
    /// clock, process table and disk, where the real-process tests can afford a few seconds of real time.
    @Suite struct SimulatedClockTests {
        /// A client whose launched process always exits at once without connecting (a broken install) is launched for
        /// its events three times in a row, then only after a backoff of 2 s, doubled per launch up to 5 minutes. The
        /// real-process test (`DaemonRelaunchTests`) sees the first two backoffs; this one the whole hour.
        @Test func aClientWhoseLaunchesNeverConnectIsRelaunchedAfterBackoffsDoublingUpToFiveMinutes() throws {
            let start = 1_700_000_000.0
            let fixes = (0..<3600).map { (time: start + Double($0), latitude: 52.52 + Double($0) * 15 / 111_320, longitude: 13.40) }
            let client = SimulationScenario.Client(id: "sim.broken", regions: [], significant: (distance: 50, interval: 5),
                                                   exitsOnSuspend: false)
            let world = try SimulatedWorld.scratch("crash-loop", fixes: fixes, clients: [client])
            try world.startDaemon()
            world.startByHand(client.id)
            try world.settle(turns: 4)
            let user = try #require(world.processes.living.first, "the client started by hand")
            world.quit(user.identity.pid)
            world.exitOnLaunch.insert(client.id)
            var launches: [Double] = []
            for _ in 0..<3600 {
                world.clock.advance(by: 1)
                try world.run(turns: 1)
                while launches.count < world.processes.launches { launches.append(world.clock.monotonic) }
            }
            let gaps = zip(launches.dropFirst(), launches).map { $0 - $1 }
            try #require(gaps.count >= 12, "launches at \(launches)")
            // Events come every 5 s; a launch needs one that came after the last crash.
            #expect(gaps.prefix(2).allSatisfy { $0 <= 5 }, "the first launches follow the client's events: \(gaps)")
            for (k, gap) in gaps.dropFirst(2).enumerated() {
                let backoff = min(300, 2 * pow(2, Double(k)))
                // The world moves a second a turn: the exit is seen a turn after the launch, so the backoff ends a turn
                // late; a short one waits for the next event.
                #expect(gap >= backoff && gap <= max(backoff, 5) + 1, "gap \(k + 3) is \(gap) s, backoff \(backoff) s; all: \(gaps)")
            }
            #expect(gaps.suffix(3).allSatisfy { $0 >= 300 && $0 <= 301 }, "capped at five minutes: \(gaps)")
        }

        /// The simulation's SIGKILL leaves the store as a killed daemon does: its commits still in the WAL, none of them
        /// checkpointed into the database (SQLite does that when a connection closes, a killed process never), and the
        /// next start recovers them from there, with the delivery promise kept.
        @Test func aKilledDaemonLeavesItsCommitsInTheWALForTheNextStartToRecover() throws {
            let start = 1_700_000_000.0
            let fixes = (0..<120).map { (time: start + Double($0), latitude: 52.52 + Double($0) * 10 / 111_320, longitude: 13.40) }
            let depot = #"{"type":"Feature","id":"depot","properties":{"radius":100},"geometry":{"type":"Point","coordinates":[13.40,52.5209]}}"#
            let client = SimulationScenario.Client(id: "sim.crash", regions: [depot], significant: nil, exitsOnSuspend: false)
            let world = try SimulatedWorld.scratch("crash-wal", fixes: fixes, clients: [client])
            try world.startDaemon()
            world.startByHand(client.id)
            try world.settle(turns: 4)
            world.clock.advance(by: 20)
            try world.run(turns: 24)
            #expect(world.handledCount >= 1, "the client entered the depot before the kill")

            let database = DaemonSimulation.SimulatedDisk.readFile(world.storePath)
            world.crashDaemon()
            let wal = try #require(DaemonSimulation.SimulatedDisk.readFile(world.storePath + "-wal"), "the WAL outlives the killed daemon")
            #expect(!WALFile.scan(wal).commitEnds.isEmpty)
            #expect(DaemonSimulation.SimulatedDisk.readFile(world.storePath) == database, "nothing was checkpointed into the database")

            try world.startDaemon()
            try world.run(turns: 2)
            world.clock.advance(by: Double(fixes.count))
            try world.settle(turns: fixes.count + 10)
            #expect(world.violations.isEmpty && world.incomplete.isEmpty, "\(world.violations) \(world.incomplete)")
        }
    }
}

extension SimulatedWorld {
    /// A world of the given drive and clients in a scratch directory of its own.
    static func scratch(_ name: String, fixes: [(time: Double, latitude: Double, longitude: Double)],
                        clients: [SimulationScenario.Client]) throws -> SimulatedWorld {
        let directory = Simulation.scratchDirectory + "/\(name)-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return try SimulatedWorld(scenario: SimulationScenario(fixes: fixes, clients: clients), directory: directory)
    }
}
