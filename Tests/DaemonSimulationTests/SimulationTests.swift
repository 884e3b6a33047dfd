import DaemonSimulation
import Testing

/// The suites that run the daemon on the simulated disk, one test at a time: a power cut armed by one counts the
/// store writes of every daemon in the process (the disk's write countdown is global).
@Suite(.serialized) enum SimulatedDisk {}

extension SimulatedDisk {
    /// The daemon's deterministic simulation: seeded schedules of fixes, subscriber kills, crashes, power cuts and
    /// clock steps against the real daemon, its real store and real socket pairs. CI runs 10,000 seeds of the release
    /// build (`geowake-simulate`); these runs pin that the harness itself holds.
    @Suite struct SimulationTests {
        @Test func seedsOfCrashesAndPowerCutsKeepTheDeliveryPromise() throws {
            let simulation = Simulation(steps: 30)
            var handled = 0
            for seed in UInt64(1)...40 {
                let outcome = try simulation.run(seed: seed)
                #expect(outcome.failure == nil, "seed \(seed): \(outcome.failure ?? "")\n\(outcome.trail.joined(separator: "\n"))")
                handled += outcome.eventsHandled
            }
            #expect(handled > 100, "the schedules produce events at all")
        }

        @Test func oneSeedRunsTheSameScheduleTwice() throws {
            let simulation = Simulation(steps: 30)
            let first = try simulation.run(seed: 7), second = try simulation.run(seed: 7)
            #expect(first.trail == second.trail)
            #expect(first.eventsHandled == second.eventsHandled)
        }

        /// A library without its resend filter hands user code the events the daemon sends again after a restart (those
        /// whose acks it had not read yet): the simulation must catch it, or its checks prove nothing.
        @Test func aLibraryWithoutItsResendFilterIsCaughtWithinAHundredSeeds() throws {
            let simulation = Simulation(steps: 40, withoutResendFilter: true)
            var caught: Simulation.Outcome?
            for seed in UInt64(1)...100 {
                let outcome = try simulation.run(seed: seed)
                if outcome.failure != nil {
                    caught = outcome
                    break
                }
            }
            let failure = try #require(caught?.failure, "no seed of 100 caught a library that hands resends to user code")
            #expect(failure.contains("a second time"), "\(failure)")
        }
    }
}
