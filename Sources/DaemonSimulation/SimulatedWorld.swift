import Foundation
import GeoWakeCore
import GeoWakeDaemon
import GeoWakeProtocol
import Logging
import ProcessLifecycle
import Synchronization

/// One seed's world: a real daemon (its store a real SQLite file, its subscribers on real socket pairs) run turn by
/// turn on a simulated clock, with a simulated process table and simulated subscriber apps around it.
final class SimulatedWorld {
    let scenario: SimulationScenario
    let directory: String
    let clock: SimulatedClock
    let processes = SimulatedProcesses()
    private(set) var daemon: Daemon?
    private(set) var models: [String: ClientModel] = [:]
    private var subscribers: [pid_t: SimulatedSubscriber] = [:]
    /// Each process's best confirmed ack over all its connections.
    private var confirmed: [pid_t: EventNumber] = [:]
    /// Dead processes whose end the model has taken into account (connected or not when they died).
    private var mourned: Set<pid_t> = []
    /// Each process's resend filter, kept across its connections.
    private var handled: [pid_t: HandledEvents] = [:]
    /// Processes whose app code has run its start-up (monitor, start services) once.
    private var started: Set<pid_t> = []
    private(set) var violations: [String] = []
    /// Whether the subscriber apps hand resends to user code (a library bug the simulator must catch).
    let withoutResendFilter: Bool
    private let logger = Logger(label: "geowake-simulate") { _ in SwiftLogNoOpLogHandler() }
    private(set) var daemonStarts = 0
    /// Where a replayed seed tells what happens inside a step.
    var narrate: ((String) -> Void)? {
        didSet { processes.narrate = narrate }
    }
    /// A power cut of the store's disk alone happened: launched processes the store forgot may live on.
    private var storeLostPower = false
    /// Clients whose launched processes end at once without connecting (a broken install, `/bin/true`).
    var exitOnLaunch: Set<String> = []
    /// How many events each app handles in a turn (none while busy): events and acks are then in flight when a
    /// fault lands.
    private var pace: SeededRandom

    var storePath: String { directory + "/store.sqlite" }
    var tracePath: String { directory + "/trace.json" }

    init(scenario: SimulationScenario, directory: String, withoutResendFilter: Bool = false) throws {
        self.scenario = scenario
        self.directory = directory
        self.withoutResendFilter = withoutResendFilter
        pace = SeededRandom(seed: UInt64(scenario.fixes.count) &* 7919 &+ UInt64(scenario.start))
        clock = SimulatedClock(wallAtStart: Timestamp(secondsSince1970: scenario.start))
        try scenario.gpsdJSON.write(toFile: tracePath, atomically: false, encoding: .utf8)
        SimulatedDisk.writeFile(storePath, try Self.emptyStore(in: directory))
        for client in scenario.clients {
            models[client.id] = ClientModel(client, expected: try ReplayOracle.expectedEvents(
                trace: tracePath, client: client, rules: .init()))
        }
    }

    /// A store with every migration applied, made once per process: each seed starts from a copy of it instead of
    /// migrating a new file (the daemon's start then takes the next epoch as on any restart).
    private static let template = Mutex<[UInt8]?>(nil)

    private static func emptyStore(in directory: String) throws -> [UInt8] {
        try template.withLock { template in
            if let template { return template }
            let path = directory + "/template.sqlite"
            do { _ = try DaemonStore(path: path) }
            let bytes = SimulatedDisk.readFile(path) ?? []
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            template = bytes
            return bytes
        }
    }

    func startDaemon() throws {
        let supervisor = ProcessSupervisor(logDirectory: directory + "/logs", logger: logger,
                                           clock: { [clock] in clock.wall }, control: processes)
        daemon = try Daemon(paths: DaemonPaths(socket: directory + "/geowaked.sock", state: storePath), trace: tracePath,
                            speed: 1, durability: scenario.durabilityFull ? .full : .normal, activation: supervisor,
                            logger: logger, clock: clock.daemonClock)
        daemon!.begin()
        daemonStarts += 1
    }

    /// SIGKILL: what was committed stays, in the WAL as the daemon left it; the connections close.
    func crashDaemon() {
        daemon?.store.closeAsKilled()
        daemon = nil
        for key in models.keys { models[key]!.daemonWentDown() }
    }

    /// The machine loses power at one of the store's next writes (`MidTurnPowerCut`), if the daemon makes it within
    /// `turns` turns (as fixes fall due over `seconds`), else after them: the daemon and every process die, and the store keeps what was synced plus a
    /// prefix of the later commits. With `machine` false only the store's disk does (a USB drive, a VM's volume):
    /// the daemon dies with it, and its subscribers live on to meet the rolled-back store. Either way user code
    /// handles every event its process had received when the power went: the most a power cut can let it see.
    /// Returns where the power went.
    func powerCut(machine: Bool, seconds: Double, turns: Int, random: inout SeededRandom) throws -> String {
        let write = Int.random(in: 1...12, using: &random)
        let pick = random.next()
        MidTurnPowerCut.arm(atWrite: write, store: storePath, pick: pick)
        clock.advance(by: seconds)
        var turn = 0
        while turn < turns, !MidTurnPowerCut.hasLanded {
            turn += 1
            MidTurnPowerCut.watch(subscribers.mapValues(\.fd))
            if let daemon { _ = try daemon.turn(waiting: false) }
            if !MidTurnPowerCut.hasLanded { _ = pumpApps() }
        }
        let landed = MidTurnPowerCut.disarm()
        let files = landed?.files ?? SimulatedDisk.powerCut(store: storePath) { Int(pick % UInt64($0)) }
        for (pid, subscriber) in subscribers.sorted(by: { $0.key < $1.key }) {
            subscriber.read(atMost: landed.map { $0.received[pid] ?? 0 } ?? .max)
            if processes.state(pid) == .running { record(subscriber, all: true) }
            subscriber.close()
            subscribers[pid] = nil
        }
        daemon = nil
        if machine {
            for process in processes.living { kill(process.identity.pid) }
        } else {
            storeLostPower = true
        }
        for key in models.keys {
            models[key]!.daemonWentDown()
            models[key]!.powerCut(durabilityFull: scenario.durabilityFull)
        }
        SimulatedDisk.restore(store: storePath, files)
        return landed == nil ? "after \(turns) turns" : "at write \(write) of the store, in turn \(turn)"
    }

    func kill(_ pid: pid_t) {
        processes.kill(pid)
        reapSubscriber(pid)
    }

    /// The user starts a client's app by hand (or quits it, Ctrl-C: a clean exit).
    func startByHand(_ clientID: String) {
        _ = processes.start(clientID: clientID, launched: false)
    }

    func quit(_ pid: pid_t) {
        processes.send(.terminate, to: processes.table[pid]!.identity)
        reapSubscriber(pid)
    }

    private func reapSubscriber(_ pid: pid_t) {
        guard let entry = processes.table[pid], mourned.insert(pid).inserted else { return }
        // A dead process handles nothing more: what it read and had not handled is resent to its successor.
        let subscriber = subscribers.removeValue(forKey: pid)
        let inSocket = daemon != nil ? subscriber?.acksInFlight ?? [] : []
        subscriber?.close()
        narrate?("pid \(pid) dead, its acks confirmed through \(confirmed[pid] ?? EventNumber(epoch: 0, seq: 0))"
                 + (inSocket.isEmpty ? "" : ", \(inSocket.count) more in its socket"))
        models[entry.clientID]?.processDied(pid, confirmedThrough: confirmed[pid] ?? EventNumber(epoch: 0, seq: 0), inSocket: inSocket)
    }

    /// `turns` turns of the daemon (a fix a turn, when one is due) and of every app.
    func run(turns: Int) throws {
        for _ in 0..<turns {
            try daemonTurn()
            _ = pumpApps()
        }
    }

    /// One turn of the daemon, if it is up; it has then read every dead process's socket.
    private func daemonTurn() throws {
        guard let daemon else { return }
        _ = try daemon.turn(waiting: false)
        for key in models.keys { models[key]!.daemonTurned() }
    }

    /// Turns until nothing moves and no app has an event waiting, at least `turns` of them.
    func settle(turns: Int) throws {
        var quiet = 0
        var turn = 0
        while turn < turns + 400, quiet < 3 || turn < turns {
            turn += 1
            try daemonTurn()
            let moved = pumpApps() || subscribers.values.contains { !$0.waiting.isEmpty }
            quiet = moved ? 0 : quiet + 1
        }
    }

    /// Every app takes its turn: a launched or started process connects, a connected one reads and handles its
    /// events, a stopped one does nothing, a dead one's socket is closed. True when anything moved.
    private func pumpApps() -> Bool {
        var moved = false
        for process in processes.table.values.sorted(by: { $0.identity.pid < $1.identity.pid }) {
            let pid = process.identity.pid
            switch process.state {
            case .dead:
                if !mourned.contains(pid) {
                    reapSubscriber(pid)
                    moved = true
                }
            case .stopped:
                continue
            case .running:
                if process.launched, exitOnLaunch.contains(process.clientID), subscribers[pid] == nil {
                    processes.exit(pid, status: 0)
                    moved = true
                    continue
                }
                if subscribers[pid] == nil, let daemon {
                    connect(process, to: daemon)
                    moved = true
                }
                guard let subscriber = subscribers[pid] else { continue }
                let open = subscriber.read()
                if record(subscriber) { moved = true }
                if !open {
                    subscribers[pid] = nil
                    moved = true
                }
            }
        }
        return moved
    }

    /// Hands what a subscriber read to user code, checking each event against the model; true if any.
    @discardableResult
    private func record(_ subscriber: SimulatedSubscriber, all: Bool = false) -> Bool {
        guard let clientID = processes.table[subscriber.pid]?.clientID else { return false }
        var any = false
        subscriber.handle(upTo: all ? .max : Int.random(in: 0...3, using: &pace)) { event in
            any = true
            narrate?("pid \(subscriber.pid) \(clientID) handles \(event.number) \(event.text)")
            if let violation = models[clientID]!.handled(event.text, as: event.number, by: subscriber.pid) {
                violations.append(violation)
            }
        }
        handled[subscriber.pid] = subscriber.handled
        if let violation = subscriber.sequenceViolation { violations.append("\(clientID): \(violation)") }
        confirmed[subscriber.pid] = max(confirmed[subscriber.pid] ?? EventNumber(epoch: 0, seq: 0), subscriber.confirmedThrough)
        if isStrayLaunch(subscriber) {
            narrate?("pid \(subscriber.pid) \(clientID) was refused: a launch the store lost, beside the user's process; it exits")
            processes.exit(subscriber.pid, status: 1)
            return true
        }
        for refusal in subscriber.refusals where !violations.contains(refusal) { violations.append("\(clientID): refused: \(refusal)") }
        return any
    }

    /// A launched process the daemon no longer knows of — a power cut of the store's disk took its launch back — that
    /// registers while the user's own process of the client is registered is refused (`clientBusy`), and ends as an
    /// app whose `LocationManager` could not start does. Without such a power cut, the user's process takes over
    /// from a launched one, and any refusal is a violation.
    private func isStrayLaunch(_ subscriber: SimulatedSubscriber) -> Bool {
        guard storeLostPower, let process = processes.table[subscriber.pid], process.launched,
              subscriber.refusals.contains(where: { $0.contains(#""code":"clientBusy""#) }) else { return false }
        return processes.living.contains { $0.clientID == process.clientID && !$0.launched }
    }

    /// The app connects as `GeoWake.LocationManager` does: hello and register; a process's first connection also
    /// runs the app's start-up, which monitors its regions and starts its services (the same ones every launch).
    private func connect(_ process: SimulatedProcesses.Process, to daemon: Daemon) {
        var pair: [Int32] = [-1, -1]
        // Close-on-exec: a process another test spawns meanwhile must not hold the app's end open past its kill -9.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { return }
        daemon.adopt(pair[0], pid: process.identity.pid)
        narrate?("pid \(process.identity.pid) \(process.clientID) connects (\(process.launched ? "launched for \(process.reason?.rawValue ?? "?")" : "started by hand"))")
        let subscriber = SimulatedSubscriber(pid: process.identity.pid, clientID: process.clientID, fd: pair[1],
                                             handled: handled[process.identity.pid] ?? HandledEvents(),
                                             withoutResendFilter: withoutResendFilter)
        subscriber.narrate = narrate
        subscribers[process.identity.pid] = subscriber
        let client = models[process.clientID]!.scenario
        subscriber.send("hello", "\"protocol\":1")
        let options = client.exitsOnSuspend ? #"{"exitsOnSuspend":true}"# : "{}"
        let launchReason = process.reason.map { #","launchReason":"\#($0.rawValue)""# } ?? ""
        subscriber.send("register", #""client":"\#(client.id)","launch":["/simulated/app","\#(client.id)"],"options":\#(options)\#(launchReason)"#)
        guard started.insert(process.identity.pid).inserted else { return }
        if !client.regions.isEmpty { subscriber.send("monitor", "\"features\":[" + client.regions.joined(separator: ",") + "]") }
        if let significant = client.significant {
            subscriber.send("startSignificant", "\"distance\":\(significant.distance),\"interval\":\(significant.interval)")
        }
    }

    /// A graceful stop (SIGTERM): the daemon continues every process it stopped before it exits.
    func stopDaemon() {
        daemon?.end()
        daemon = nil
        for key in models.keys { models[key]!.daemonWentDown() }
    }

    var incomplete: [String] {
        models.values.filter { !$0.isComplete }.map { "\($0.scenario.id): user code handled \($0.next) of replay's \($0.expected.count) events" }
            .sorted()
    }

    var handledCount: Int { models.values.reduce(0) { $0 + $1.next } }

    deinit {
        daemon = nil
        for subscriber in subscribers.values { subscriber.close() }
        SimulatedDisk.forget(store: storePath)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
