import Foundation
import GeoWakeCore
import Geofencing
import GPSDTestSupport
import LocationServices
import RegionIndex
import Regions
import Testing
import TestSupport
@testable import Fleet

/// Every service per device, not only region monitoring: the fleet's events for a device, split by
/// service, are `geowake replay --service …` with the same options over that device's fixes.
@Suite(.serialized, .timeLimit(.minutes(3))) struct FleetServicesTests {
    static let trace = "traces/berlin-drive.nmea"
    /// Options under which the Berlin drive gives events of every service.
    static let regionOptions = ["--hysteresis", "20", "--debounce", "4"]
    static let standardOptions = ["--distance-filter", "150", "--minimum-interval", "5"]
    static let significantOptions = ["--significant-distance", "400", "--significant-interval", "60"]
    static let visitOptions = ["--visit-radius", "60", "--visit-duration", "20"]

    static let services = FleetServices(
        regions: RegionMonitorConfiguration(hysteresis: 20, debounce: 4),
        standard: StandardLocationFilter.Configuration(distanceFilter: 150, minimumInterval: 5),
        significant: SignificantChangeDetector.Configuration(distance: 400, interval: 60),
        visits: VisitDetector.Configuration(radius: 60, minimumDuration: 20))

    /// `geowake replay`'s lines for each service, by the `"event"` names the fleet's lines carry.
    static func replayByService() throws -> [String: [String]] {
        let run = { (options: [String]) throws -> [String] in
            let result = try FleetRun.geowake(["replay", trace] + options)
            guard result.status == 0 else { throw TestFailure("replay \(options) failed: \(result.error)") }
            return result.output.split(separator: "\n").map(String.init)
        }
        return ["regions": try run(["--regions", "regions/berlin-1k.geojson"] + regionOptions),
                "standard": try run(["--service", "standard"] + standardOptions),
                "significant": try run(["--service", "significant"] + significantOptions),
                "visits": try run(["--service", "visits"] + visitOptions)]
    }

    static func service(of line: String) -> String {
        if line.hasPrefix(#"{"event":"location""#) { return "standard" }
        if line.hasPrefix(#"{"event":"significant""#) { return "significant" }
        if line.hasPrefix(#"{"event":"visit""#) { return "visits" }
        return "regions"
    }

    static func byService(_ lines: [String]) -> [String: [String]] {
        Dictionary(grouping: lines, by: service(of:)).merging(["regions": [], "standard": [], "significant": [], "visits": []]) { a, _ in a }
    }

    @Test("All four services per device, checkpointed mid-trace and restored from the encoded checkpoint, give each service's geowake replay lines with the same options, and the ids of an uninterrupted run")
    func everyServiceThroughACheckpointEqualsReplay() throws {
        let regions = RegionIndex(try RegionLoader.load(packageRoot + "/regions/berlin-1k.geojson"))
        let fixes = try PartitionStateTests.fixes()
        var whole: [PartitionStateTests.Emitted] = []
        var uninterrupted = try PartitionStateTests.state(regions: regions, services: Self.services)
        try PartitionStateTests.feed(&uninterrupted, fixes[...], firstSequence: 1, regions: regions, into: &whole)

        var resumed: [PartitionStateTests.Emitted] = []
        let cut = fixes.count * 2 / 3
        var first = try PartitionStateTests.state(regions: regions, services: Self.services)
        try PartitionStateTests.feed(&first, fixes[..<cut], firstSequence: 1, regions: regions, into: &resumed)
        let checkpoint = try PartitionCheckpoint.decoded(first.encodedCheckpoint())
        #expect(checkpoint.devices == first.checkpoint.devices)
        let van = try #require(checkpoint.devices.first)
        #expect(van.standard != nil && van.significant != nil && van.visits != nil && van.regionSets.count == 1)
        var second = try PartitionStateTests.state(checkpoint, regions: regions, services: Self.services)
        try PartitionStateTests.feed(&second, fixes[cut...], firstSequence: UInt64(cut + 1), regions: regions, into: &resumed)

        #expect(resumed.map { "\($0.device):\($0.sequence):\($0.index) \($0.line)" }
                == whole.map { "\($0.device):\($0.sequence):\($0.index) \($0.line)" })
        let expected = try Self.replayByService()
        for (service, lines) in expected { #expect(!lines.isEmpty, "the drive gives \(service) events under these options") }
        #expect(Self.byService(whole.map(\.line)) == expected)
    }

    @Test("A worker running --services regions,standard,significant,visits with replay's options publishes, for each of 20 devices, each service's geowake replay lines over that device's fixes")
    func workerRunsEveryServiceLikeReplay() async throws {
        let directory = TemporaryDirectory()
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        #expect(try FleetRun.geowake(["fleet", "regions", "put", "regions/berlin-1k.geojson"] + cluster.fleetOptions).status == 0)
        let worker = try FleetRun.worker("w1", cluster: cluster, log: directory.file("w1.log"),
                                         ["--services", "regions,standard,significant,visits"] + Self.regionOptions
                                         + Self.standardOptions + Self.significantOptions + Self.visitOptions)
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let publisher = FleetPublisher(connection)
        for (position, fix) in try PartitionStateTests.fixes().enumerated() {
            for device in 0..<20 { try publisher.publish(fix, device: "car-\(device)", position: position) }
        }
        try publisher.flush()
        let expected = try Self.replayByService()
        let total = expected.values.reduce(0) { $0 + $1.count }
        let events = try await FleetRun.events(cluster, durable: "check", expected: 20 * total, timeout: .seconds(90))
        for device in 0..<20 { #expect(Self.byService(events["car-\(device)"] ?? []) == expected, "car-\(device)") }
        #expect(worker.isRunning)
    }

    @Test("An option of a service the worker does not run is refused, naming the option and the service")
    func optionOfAServiceNotRunIsRefused() throws {
        let run = try FleetRun.geowake(["fleet", "worker", "--services", "regions", "--visit-radius", "50"])
        #expect(run.status != 0)
        #expect(run.error.contains("--visit-radius applies to the visits service, which --services does not run"))
        let unknown = try FleetRun.geowake(["fleet", "worker", "--services", "regions,teleport"])
        #expect(unknown.error.contains("\"teleport\" is none of regions, standard, significant, visits"))
    }
}
