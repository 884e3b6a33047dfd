import Foundation
import Testing
@testable import DaemonSimulation

extension SimulatedDisk {
    @Suite struct SimulatedCrashTests {
        /// The simulation's SIGKILL leaves the store as a killed daemon does: its commits still in the WAL, none of them
        /// checkpointed into the database (SQLite does that when a connection closes, a killed process never), and the
        /// next start recovers them from there, with the delivery promise kept.
        @Test func aKilledDaemonLeavesItsCommitsInTheWALForTheNextStartToRecover() throws {
            let start = 1_700_000_000.0
            let fixes = (0..<120).map { (time: start + Double($0), latitude: 52.52 + Double($0) * 10 / 111_320, longitude: 13.40) }
            let depot = #"{"type":"Feature","id":"depot","properties":{"radius":100},"geometry":{"type":"Point","coordinates":[13.40,52.5209]}}"#
            let client = SimulationScenario.Client(id: "sim.crash", regions: [depot], significant: nil, exitsOnSuspend: false)
            let directory = Simulation.scratchDirectory + "/crash-wal-\(getpid())"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let world = try SimulatedWorld(scenario: SimulationScenario(fixes: fixes, clients: [client]), directory: directory)
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
