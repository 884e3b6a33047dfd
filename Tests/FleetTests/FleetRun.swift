import Foundation
import GPSDTestSupport
import TestSupport

/// Running the built `geowake` as a user does, and reading what the fleet wrote.
enum FleetRun {
    static let geowake = builtExecutable("geowake")

    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    static func geowake(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: geowake)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is read on another thread, so neither pipe can fill while the other is read.
        let errorData = Locked(Data())
        let reader = Thread { errorData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1000) }
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                      error: String(decoding: errorData.value, as: UTF8.self))
    }

    /// `geowake replay` of a trace: the events every device that sent the trace must get, line by line.
    static func replayLines(_ trace: String, regions: String = "regions/berlin-1k.geojson", _ options: [String] = []) throws -> [String] {
        let run = try geowake(["replay", "--regions", regions, trace] + options)
        guard run.status == 0 else { throw TestFailure("replay failed: \(run.error)") }
        return run.output.split(separator: "\n").map(String.init)
    }

    /// A worker process; its standard error goes to `log`.
    static func worker(_ name: String, cluster: NATSCluster, log: String, _ options: [String] = []) throws -> ChildProcess {
        try ChildProcess([geowake, "fleet", "worker", "--name", name] + options + cluster.fleetOptions, outputPath: log)
    }

    /// Reads the events stream through the durable consumer `durable` until `expected` events have come or
    /// `timeout` passed; returns each device's event lines (as `geowake replay` prints them), in stream order.
    /// An event given to the reader twice (its message's acknowledgement lost with a node) has the same stream
    /// sequence and index and is taken once; two copies in the stream would have two sequences and stay.
    static func events(_ cluster: NATSCluster, durable: String, expected: Int, timeout: Duration) async throws -> [String: [String]] {
        try await eventsWithPlaces(cluster, durable: durable, expected: expected, timeout: timeout).mapValues { $0.map(\.line) }
    }

    /// As `events`, with where each event is stored.
    static func eventsWithPlaces(_ cluster: NATSCluster, durable: String, expected: Int,
                                 timeout: Duration) async throws -> [String: [(place: EventPlace, line: String)]] {
        var byDevice: [String: [(place: EventPlace, line: String)]] = [:]
        var seen = Set<EventPlace>()
        let deadline = ContinuousClock.now + timeout
        while seen.count < expected, ContinuousClock.now < deadline {
            let run = try geowake(["fleet", "events", "--durable", durable, "--idle-exit", "2"] + cluster.fleetOptions)
            for line in run.output.split(separator: "\n") {
                let (device, place, event) = try split(String(line))
                guard seen.insert(place).inserted else { continue }
                byDevice[device, default: []].append((place, event))
            }
        }
        return byDevice.mapValues { $0.sorted { $0.place < $1.place } }
    }

    /// Where an event is stored: its message's stream sequence and its place among the message's events.
    struct EventPlace: Hashable, Comparable {
        var sequence: Int
        var index: Int
        static func < (a: Self, b: Self) -> Bool { (a.sequence, a.index) < (b.sequence, b.index) }
    }

    /// `{"device":"D","seq":N,"index":I,REST` → (D, (N, I), `{REST`).
    static func split(_ line: String) throws -> (String, EventPlace, String) {
        let prefix = "{\"device\":\""
        guard line.hasPrefix(prefix), let deviceEnd = line.range(of: "\",\"seq\":"),
              let sequenceEnd = line.range(of: ",\"index\":", range: deviceEnd.upperBound..<line.endIndex),
              let sequence = Int(line[deviceEnd.upperBound..<sequenceEnd.lowerBound]),
              let indexEnd = line[sequenceEnd.upperBound...].firstIndex(of: ","),
              let index = Int(line[sequenceEnd.upperBound..<indexEnd]) else {
            throw TestFailure("not an event line: \(line)")
        }
        let device = String(line[line.index(line.startIndex, offsetBy: prefix.count)..<deviceEnd.lowerBound])
        return (device, EventPlace(sequence: sequence, index: index), "{" + line[line.index(after: indexEnd)...])
    }

    static func lines(of log: String) -> [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The partitions a worker holds now, as its log tells: acquired, and not since released or lost.
    static func partitions(heldIn log: String) -> Set<Int> {
        var held = Set<Int>()
        for line in lines(of: log) {
            let words = line.split(separator: " ")
            guard let at = words.firstIndex(of: "partition"), at + 2 < words.count,
                  let partition = Int(words[at + 1]) else { continue }
            switch words[at + 2] {
            case "acquired": held.insert(partition)
            case "released", "lost": held.remove(partition)
            default: break
            }
        }
        return held
    }
}

/// A value one thread sets and another waits for.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    private var wasSet = false
    init(_ value: Value) { stored = value }
    func set(_ value: Value) { lock.withLock { stored = value; wasSet = true } }
    var isSet: Bool { lock.withLock { wasSet } }
    var value: Value { lock.withLock { stored } }
}
