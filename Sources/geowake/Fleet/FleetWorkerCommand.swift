#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Fleet
import Geofencing
import RegionIndex
import Regions
import Synchronization

/// `geowake fleet worker`: processes its share of the partitions until SIGTERM or SIGINT, then checkpoints
/// and hands them back. One line per change of ownership and per checkpoint goes to standard error.
struct FleetWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run the location services for the devices of this worker's share of the partitions."
    )

    enum Service: String, CaseIterable {
        case regions, standard, significant, visits
    }

    @Option(help: "This worker's name, unique in the fleet (default: host name and process id).")
    var name: String?

    @Option(help: "The services every device runs, comma-separated: regions, standard, significant, visits (default regions).")
    var services = "regions"

    @Option(help: "The region set of every device no assignment names (see `geowake fleet regions put`, `geowake fleet assign`).")
    var regionSet = "default"

    @Option(help: "Load regions from this file instead of the region set (sets larger than a NATS message).")
    var regions: String?

    @Option(parsing: .unconditional, help: "Stop after this many seconds without input, once holding partitions (for benchmarks and tests).")
    var exitWhenIdle: Double?

    @Option(parsing: .unconditional, help: "Take no partition before this many workers are alive (for benchmarks).")
    var waitForWorkers = 1

    @OptionGroup var rules: RegionRuleOptions
    @OptionGroup var serviceOptions: ServiceOptions
    @OptionGroup var tuning: FleetTuningOptions
    @OptionGroup var nats: FleetConnectionOptions

    /// The services chosen, each with the options `geowake replay --service …` takes; an option of a
    /// service not chosen is a mistake worth saying.
    func fleetServices() throws -> FleetServices {
        var chosen: [Service] = []
        for name in services.split(separator: ",") {
            guard let service = Service(rawValue: String(name)) else {
                throw CommandError("--services: \"\(name)\" is none of \(Service.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !chosen.contains(service) { chosen.append(service) }
        }
        guard !chosen.isEmpty else { throw CommandError("--services names no service") }
        let given = rules.given.map { ($0.0, "regions", $0.1) } + serviceOptions.given.map { ($0.option, $0.service, $0.isGiven) }
        if let (option, owner, _) = given.first(where: { $0.2 && !chosen.map(\.rawValue).contains($0.1) }) {
            throw CommandError("\(option) applies to the \(owner) service, which --services does not run")
        }
        let result = FleetServices(regions: chosen.contains(.regions) ? try rules.configuration() : nil,
                                   standard: chosen.contains(.standard) ? serviceOptions.standard : nil,
                                   significant: chosen.contains(.significant) ? serviceOptions.significant : nil,
                                   visits: chosen.contains(.visits) ? serviceOptions.visits : nil)
        do {
            try result.standard?.validate()
            try result.significant?.validate()
            try result.visits?.validate()
        } catch {
            throw CommandError("\(error)")
        }
        return result
    }

    func validate() throws {
        _ = try fleetServices()
        if let exitWhenIdle, !(exitWhenIdle >= 0 && exitWhenIdle.isFinite) {
            throw ValidationError("--exit-when-idle must be a number of seconds >= 0, not \(exitWhenIdle)")
        }
        guard waitForWorkers >= 1 else { throw ValidationError("--wait-for-workers must be at least 1, not \(waitForWorkers)") }
    }

    func run() throws {
        let workerID = name ?? Self.defaultName()
        var options = FleetWorker.Options(workerID: workerID, layout: nats.layout, services: try fleetServices(),
                                          regionSet: regionSet, exitWhenIdle: exitWhenIdle.map { Int64($0 * 1000) })
        options.minimumWorkers = waitForWorkers
        options.timing = tuning.applied(to: options.timing)
        if let regions { options.localRegions = RegionIndex(try RegionLoader.load(regions)) }
        let connection = try nats.connect(name: "geowake fleet worker \(workerID)", ioBufferBytes: tuning.ioBuffer, sendsAtOnce: true)
        signal(SIGTERM) { _ in workerStopRequested.store(true, ordering: .relaxed) }
        signal(SIGINT) { _ in workerStopRequested.store(true, ordering: .relaxed) }
        // A parent that blocks these (a test runner's threads do) hands its mask down through exec.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let servers = nats.servers.split(separator: ",").map(String.init)
        let worker = try FleetWorker(connection, servers: servers, options: options) { line in
            fleetNote("geowake fleet worker \(workerID): \(line)")
        }
        try worker.run { workerStopRequested.load(ordering: .relaxed) }
    }

    static func defaultName() -> String {
        var host = [UInt8](repeating: 0, count: 256)
        _ = host.withUnsafeMutableBufferPointer { gethostname(UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count - 1) }
        let name = String(decoding: host.prefix { $0 != 0 }, as: UTF8.self)
        return "\(name.replacingDots)-\(getpid())"
    }
}

private let workerStopRequested = Atomic<Bool>(false)

private extension String {
    var replacingDots: String { String(map { $0 == "." ? "-" : $0 }) }
}
