import Foundation
import GeoWakeProtocol

/// A seeded schedule of what a daemon's life throws at it — time passing (fixes arrive), subscribers started by
/// hand, quit and SIGKILLed, daemon crashes and power cuts with restarts, wall-clock steps — with the invariants
/// checked after every step, then a calm end in which every subscriber must have caught up with `replay`.
public struct Simulation {
    public struct Outcome: Sendable {
        public var seed: UInt64
        /// The first invariant broken, nil when the seed passed.
        public var failure: String?
        /// The step it broke at, and every action up to it.
        public var failedStep: Int?
        public var trail: [String]
        public var eventsHandled: Int
        public var daemonStarts: Int
    }

    public var steps: Int
    /// Subscribers hand resends to user code: a library bug that daemon crashes expose.
    public var withoutResendFilter = false
    /// Hears each step and, inside it, every connection, event handled, reply and death (`--seed N` prints them).
    public var narrate: (@Sendable (String) -> Void)?

    public init(steps: Int = 40, withoutResendFilter: Bool = false) {
        self.steps = steps
        self.withoutResendFilter = withoutResendFilter
        SimulatedDisk.install()
    }

    public func run(seed: UInt64, directory parent: String = Simulation.scratchDirectory) throws -> Outcome {
        var random = SeededRandom(seed: seed)
        let scenario = SimulationScenario(random: &random)
        let directory = parent + "/seed-\(seed)-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let world = try SimulatedWorld(scenario: scenario, directory: directory, withoutResendFilter: withoutResendFilter)
        world.narrate = narrate.map { narrate in { narrate("   " + $0) } }
        var trail: [String] = []
        func note(_ line: String) {
            narrate?("\(trail.count). \(line)")
            trail.append(line)
        }
        func outcome(_ failure: String?, at step: Int?) -> Outcome {
            Outcome(seed: seed, failure: failure, failedStep: step, trail: trail, eventsHandled: world.handledCount,
                    daemonStarts: world.daemonStarts)
        }
        try world.startDaemon()
        for client in scenario.clients { world.startByHand(client.id) }
        note("start: \(scenario.clients.count) clients, \(scenario.fixes.count) fixes, durability \(scenario.durabilityFull ? "full" : "normal")")
        try world.settle(turns: 4)
        for step in 1...steps {
            let action = try perform(on: world, &random)
            note(action)
            if let failure = world.violations.first { return outcome(failure, at: step) }
        }
        note("calm: daemon up, every client started by hand, the trace replayed to its end")
        if world.daemon == nil { try world.startDaemon() }
        for client in scenario.clients where !world.processes.living.contains(where: { $0.clientID == client.id && !$0.launched }) {
            world.startByHand(client.id)
        }
        // A turn to connect and start the source, then past the trace's end at once: the daemon takes every fix due,
        // a turn each, then everything settles.
        try world.run(turns: 2)
        world.clock.advance(by: Double(scenario.fixes.count) + 60)
        try world.settle(turns: scenario.fixes.count + 10)
        if let failure = world.violations.first ?? world.incomplete.first { return outcome(failure, at: steps + 1) }
        world.stopDaemon()
        note("stop: SIGTERM")
        if let stopped = world.processes.living.first(where: { $0.state == .stopped }) {
            return outcome("pid \(stopped.identity.pid) (\(stopped.clientID)) left stopped after the daemon stopped", at: steps + 2)
        }
        return outcome(nil, at: nil)
    }

    private func perform(on world: SimulatedWorld, _ random: inout SeededRandom) throws -> String {
        let roll = Double.random(in: 0..<1, using: &random)
        let living = world.processes.living
        switch roll {
        case ..<0.10 where !living.isEmpty:
            let victim = living.randomElement(using: &random)!
            world.kill(victim.identity.pid)
            try world.run(turns: Int.random(in: 0...3, using: &random))
            return "kill -9 pid \(victim.identity.pid) (\(victim.clientID), \(victim.launched ? "launched" : "by hand"))"
        case ..<0.17:
            let client = world.scenario.clients.randomElement(using: &random)!
            guard !living.contains(where: { $0.clientID == client.id && !$0.launched }) else { return try advance(world, 1, &random) }
            world.startByHand(client.id)
            try world.run(turns: Int.random(in: 0...3, using: &random))
            return "user starts \(client.id)"
        case ..<0.22:
            guard let app = living.filter({ !$0.launched }).randomElement(using: &random) else { return try advance(world, 1, &random) }
            world.quit(app.identity.pid)
            try world.run(turns: Int.random(in: 0...3, using: &random))
            return "user quits pid \(app.identity.pid) (\(app.clientID))"
        case ..<0.29 where world.daemon != nil:
            world.crashDaemon()
            let down = Double(Int.random(in: 0...20, using: &random))
            return "daemon SIGKILLed, " + (try restart(world, after: down, &random))
        case ..<0.34 where world.daemon != nil:
            let machine = random.chance(0.5)
            let seconds = Double(Int.random(in: 0...10, using: &random))
            let when = try world.powerCut(machine: machine, seconds: seconds, turns: Int(seconds) + Int.random(in: 1...3, using: &random),
                                          random: &random)
            let down = Double(Int.random(in: 0...30, using: &random))
            return (machine ? "power cut " : "power cut of the store's disk ") + when + ", " + (try restart(world, after: down, &random))
        case ..<0.38:
            let step = Double(Int.random(in: -3600...3600, using: &random))
            world.clock.stepWall(by: step)
            try world.run(turns: 1)
            return "wall clock steps \(step) s"
        default:
            return try advance(world, Double(Int.random(in: 1...150, using: &random)) / 10, &random)
        }
    }

    /// Time passes: the turns it takes to take the fixes that fell due, give or take a few, so that a fault may
    /// land with fixes, events and acks still on their way.
    private func advance(_ world: SimulatedWorld, _ seconds: Double, _ random: inout SeededRandom) throws -> String {
        world.clock.advance(by: seconds)
        try world.run(turns: max(0, Int(seconds.rounded(.up)) + Int.random(in: -2...3, using: &random)))
        return "\(seconds) s pass"
    }

    private func restart(_ world: SimulatedWorld, after seconds: Double, _ random: inout SeededRandom) throws -> String {
        world.clock.advance(by: seconds)
        try world.run(turns: 1)
        try world.startDaemon()
        try world.run(turns: Int.random(in: 0...3, using: &random))
        return "restarted after \(seconds) s"
    }

    /// Memory-backed where the machine has it: the simulation syncs nothing for real.
    public static var scratchDirectory: String {
        var status = stat()
        return stat("/dev/shm", &status) == 0 ? "/dev/shm/geowake-simulate" : NSTemporaryDirectory() + "geowake-simulate"
    }
}
