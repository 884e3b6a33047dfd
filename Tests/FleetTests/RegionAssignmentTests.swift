import Foundation
import GeoWakeCore
import GPSDTestSupport
import JSONLines
import RegionIndex
import Testing
import TestSupport
@testable import Fleet

/// Which devices monitor which region sets: configuration, changed at one place in each device's input.
@Suite(.serialized, .timeLimit(.minutes(2))) struct RegionAssignmentTests {
    static let fix = Fix(time: Timestamp(millisecondsSince1970: 1_717_458_600_000),
                         coordinate: Coordinate(latitude: 52.5, longitude: 13.4), horizontalAccuracy: 3)

    static func circle(_ id: String, _ radius: Int) -> String {
        #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"radius":\#(radius)}}"#
    }

    static func collection(_ features: String...) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    @Test("Assignments text: a device's own line wins over the longest prefix, which wins over default; without default the worker's set applies; errors name the line")
    func assignmentRules() throws {
        let text = """
        # fleet
        default city
        prefix  van-    city,depots
        prefix  van-9   depots
        device  van-7   yard
        prefix  bike-
        """
        let assignments = try RegionAssignments(text: text)
        #expect(assignments.sets(for: "van-7", fallback: ["x"]) == ["yard"])
        #expect(assignments.sets(for: "van-91", fallback: ["x"]) == ["depots"])
        #expect(assignments.sets(for: "van-1", fallback: ["x"]) == ["city", "depots"])
        #expect(assignments.sets(for: "bike-3", fallback: ["x"]).isEmpty)
        #expect(assignments.sets(for: "bus-1", fallback: ["x"]) == ["city"])
        #expect(try RegionAssignments(text: assignments.text) == assignments)
        #expect(try RegionAssignments(text: "prefix van- a").sets(for: "bus", fallback: ["x"]) == ["x"])
        #expect(throws: FleetError.self) { try RegionAssignments(text: "default a\nfleet b") }
        do {
            _ = try RegionAssignments(text: "default a\nprefix van- a.b")
            Issue.record("a set name with a dot was taken")
        } catch {
            #expect("\(error)" == #"assignments, line 2: "a.b" is not a region set name"#)
        }
    }

    @Test("New assignments announced in a partition move its devices at that place: a set joined starts afresh (its enters on the next fix), a set left gives its regionRemoved exits, a device no rule names falls to the worker's set; a device on two sets has each line named by its set")
    func assignmentChangeMovesDevices() throws {
        let sets = ["city": Self.collection(Self.circle("centre", 300)), "depots": Self.collection(Self.circle("depot", 100))]
        let versions = [1: "default city", 2: "default city\nprefix van- city,depots", 3: "prefix van- depots"]
        let sources = PartitionSources(regions: { set, revision in
            revision == 0 ? RegionIndex() : RegionIndex(try RegionSets.load(Array(sets[set]!.utf8), name: set))
        }, assignments: { try RegionAssignments(text: versions[Int($0)]!) })
        var state = try PartitionState(partition: 0, services: FleetServices(), checkpoint: PartitionCheckpoint(), sources: sources)
        var lines: [String] = []
        let emit: PartitionState.Emit = { device, _, body in lines += body.lines.map { "\(device) " + $0 } }
        var sequence: UInt64 = 0
        let apply = { (subject: String, payload: [UInt8]) in
            sequence += 1
            try state.apply(sequence: sequence, subject: subject, payload: payload, sources: sources, emit: emit)
        }
        try apply("geowake.in.0.regions", RegionsMarker.payload(set: "city", revision: 1))
        try apply("geowake.in.0.regions", RegionsMarker.payload(set: "depots", revision: 1))
        try apply("geowake.in.0.assignments", AssignmentsMarker.payload(revision: 1))
        try apply("geowake.in.0.fix.van-1", PartitionStateTests.payload(Self.fix))
        try apply("geowake.in.0.fix.bus-1", PartitionStateTests.payload(Self.fix))
        try apply("geowake.in.0.assignments", AssignmentsMarker.payload(revision: 2))
        try apply("geowake.in.0.fix.van-1", PartitionStateTests.payload(Self.fix))
        let checkpoint = try PartitionCheckpoint.decoded(state.encodedCheckpoint())
        #expect(checkpoint.assignmentsRevision == 2)
        #expect(checkpoint.devices.first { $0.id == "van-1" }?.regionSets.map(\.set) == ["city", "depots"])
        state = try PartitionState(partition: 0, services: FleetServices(), checkpoint: checkpoint, sources: sources)
        try apply("geowake.in.0.assignments", AssignmentsMarker.payload(revision: 3))
        let at = #""time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4"#
        #expect(lines == [
            #"van-1 {"event":"enter","region":"centre",\#(at)}"#,
            #"bus-1 {"event":"enter","region":"centre",\#(at)}"#,
            #"van-1 {"set":"depots","event":"enter","region":"depot",\#(at)}"#,
            #"bus-1 {"event":"exit","region":"centre",\#(at),"reason":"regionRemoved"}"#,
            #"van-1 {"set":"city","event":"exit","region":"centre",\#(at),"reason":"regionRemoved"}"#,
        ])
        #expect(state.devices["bus-1"]?.setNames == ["default"], "no rule of revision 3 names bus-1: the worker's set")
    }

    @Test("geowake fleet assign reaches a running worker: devices of a prefix move to another set at once, the others stay")
    func assignReachesRunningWorker() async throws {
        let directory = TemporaryDirectory()
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        let city = directory.write("city.geojson", Self.collection(Self.circle("centre", 300)))
        let depots = directory.write("depots.geojson", Self.collection(Self.circle("depot", 100)))
        #expect(try FleetRun.geowake(["fleet", "regions", "put", city, "--set", "city"] + cluster.fleetOptions).status == 0)
        #expect(try FleetRun.geowake(["fleet", "regions", "put", depots, "--set", "depots"] + cluster.fleetOptions).status == 0)
        let worker = try FleetRun.worker("w1", cluster: cluster, log: directory.file("w1.log"), ["--region-set", "city"])
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let publisher = FleetPublisher(connection)
        var fix = Self.fix
        for device in ["van-1", "bus-1"] { try publisher.publish(fix, device: device, position: 0) }
        try publisher.flush()
        let first = try await FleetRun.events(cluster, durable: "check", expected: 2, timeout: .seconds(30))
        #expect(first["van-1"]?.count == 1 && first["bus-1"]?.count == 1)
        let rules = directory.write("assign.txt", "prefix van- depots\n")
        let assigned = try FleetRun.geowake(["fleet", "assign", rules] + cluster.fleetOptions)
        #expect(assigned.status == 0, "\(assigned.error)")
        fix.time = Timestamp(millisecondsSince1970: 1_717_458_601_000)
        for device in ["van-1", "bus-1"] { try publisher.publish(fix, device: device, position: 1) }
        try publisher.flush()
        let second = try await FleetRun.events(cluster, durable: "check", expected: 2, timeout: .seconds(30))
        let at = #""time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4"#
        let later = #""time":"2024-06-03T23:50:01.000Z","lat":52.5,"lon":13.4"#
        #expect(second["van-1"] == [#"{"event":"exit","region":"centre",\#(at),"reason":"regionRemoved"}"#,
                                    #"{"event":"enter","region":"depot",\#(later)}"#])
        #expect(second["bus-1"] == nil)
        let bad = try FleetRun.geowake(["fleet", "assign", directory.write("bad.txt", "prefix\n")] + cluster.fleetOptions)
        #expect(bad.status != 0 && bad.error.contains("line 1: expected prefix NAME"))
        #expect(worker.isRunning)
    }
}
