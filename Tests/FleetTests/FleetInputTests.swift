import Foundation
import GeoWakeCore
import GPSDTestSupport
import JSONLines
import Testing
import TestSupport
@testable import Fleet

/// What devices send, through one real `nats-server` and a real worker process.
@Suite(.serialized, .timeLimit(.minutes(2))) struct FleetInputTests {
    static let trace = "traces/berlin-drive.nmea"

    static func fleet(_ directory: TemporaryDirectory) async throws -> (NATSCluster, ChildProcess) {
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        let put = try FleetRun.geowake(["fleet", "regions", "put", "regions/berlin-1k.geojson"] + cluster.fleetOptions)
        #expect(put.status == 0, "\(put.error)")
        return (cluster, try FleetRun.worker("w1", cluster: cluster, log: directory.file("w1.log")))
    }

    /// `fleet`, and a publisher of the test's own on the cluster.
    static func fleetAndPublisher(_ directory: TemporaryDirectory) async throws -> (NATSCluster, ChildProcess, FleetPublisher) {
        let (cluster, worker) = try await fleet(directory)
        return (cluster, worker, FleetPublisher(try NATSConnection(servers: [cluster.servers], name: "test")))
    }

    /// OwnTracks' numbers for a fix, written in Swift's shortest exact form (a phone writes fewer digits).
    static func ownTracks(_ fix: Fix) -> String {
        var text = #"{"_type":"location","tid":"ph","lat":\#(fix.coordinate.latitude),"lon":\#(fix.coordinate.longitude)"#
        text += #","tst":\#(fix.time!.secondsSince1970)"#
        if let accuracy = fix.horizontalAccuracy { text += #","acc":\#(accuracy)"# }
        return text + "}"
    }

    @Test("OwnTracks locations published over MQTT to owntracks/USER/DEVICE give the events replay gives for the NMEA trace they came from")
    func ownTracksOverMQTT() async throws {
        let directory = TemporaryDirectory()
        let (cluster, worker) = try await Self.fleet(directory)
        let fixes = try PartitionStateTests.fixes().filter { $0.time != nil }
        let mqtt = try MQTTPublisher(port: cluster.nodes[0].mqttPort, clientID: "alice-phone")
        for fix in fixes { try mqtt.publish(topic: "owntracks/alice/phone", Array(Self.ownTracks(fix).utf8)) }
        let expected = try FleetRun.replayLines(Self.trace)
        let events = try await FleetRun.events(cluster, durable: "check", expected: expected.count, timeout: .seconds(40))
        #expect(events["owntracks.alice.phone"] == expected)
        #expect(events.count == 1)
        #expect(worker.isRunning)
    }

    @Test("Malformed payloads (alone and inside a batch), fixes without time, out-of-order fixes and unknown subjects are counted and named in the worker's log; the worker lives and the devices beside them get replay's events")
    func badInputIsCountedNotFatal() async throws {
        let directory = TemporaryDirectory()
        let (cluster, worker, publisher) = try await Self.fleetAndPublisher(directory)
        let bad = FleetLayout.fixSubject(device: "bad")
        let late = #"{"time":"2024-06-03T23:59:00.000Z","lat":10.5,"lon":10.4}"#
        let early = #"{"time":"2024-06-03T23:58:00.000Z","lat":10.5,"lon":10.4}"#
        let junk = ["not json", #"{"time":"2024-06-03T23:50:00.000Z"}"#, #"{"lat":52.5,"lon":13.4}"#, #"{"_type":"lwt","tst":1}"#,
                    late, early]
        for (i, payload) in junk.enumerated() { try publisher.publish(payload: Array(payload.utf8), subject: bad, id: "bad:\(i)") }
        // A batch: its two bad lines are counted one by one; its good line (no region there) is a fix.
        let batch = ["not json either", #"{"time":"2024-06-04T00:00:00.000Z","lat":10.5,"lon":10.4}"#, #"{"lat":1,"lon":2}"#]
        try publisher.publish(payload: Array(batch.joined(separator: "\n").utf8), subject: bad, id: "bad:batch")
        try publisher.publish(payload: Array(late.utf8), subject: "geowake.in.0.weird.subject", id: "weird")
        for (position, fix) in try PartitionStateTests.fixes().enumerated() {
            for device in 0..<10 { try publisher.publish(fix, device: "good-\(device)", position: position) }
        }
        try publisher.flush()
        let expected = try FleetRun.replayLines(Self.trace)
        let events = try await FleetRun.events(cluster, durable: "check", expected: 10 * expected.count, timeout: .seconds(60))
        for device in 0..<10 { #expect(events["good-\(device)"] == expected, "good-\(device)") }
        #expect(events["bad"] == nil)
        #expect(worker.isRunning)
        let log = FleetRun.lines(of: directory.file("w1.log"))
        #expect(log.filter { $0.contains("device bad,") && $0.contains("malformed") }.count == 5)
        #expect(log.contains { $0.contains("device bad,") && $0.contains("out of order") })
        #expect(log.contains { $0.contains("unknown subject geowake.in.0.weird.subject") })
        // The last checkpoint of each partition sums up what it skipped.
        var last: [String: String] = [:]
        for line in log where line.contains("checkpointed") {
            let partition = line.components(separatedBy: "partition ")[1].split(separator: " ")[0]
            last[String(partition)] = line
        }
        let total = { (what: String) in
            last.values.reduce(0) { sum, line in
                sum + (line.components(separatedBy: " \(what)").first?.split(separator: " ").last.flatMap { Int($0) } ?? 0)
            }
        }
        #expect(total("malformed") == 5 && total("out of order") == 1 && total("not a fix") == 1 && total("unknown subject") == 1)
    }

    @Test("A region set changed while a worker runs reaches it without a restart: a removed region the device is inside gives its regionRemoved exit, once")
    func regionSetChangeReachesRunningWorker() async throws {
        let directory = TemporaryDirectory()
        let (cluster, worker) = try await Self.fleet(directory)
        let fixes = Array(try PartitionStateTests.fixes().filter { $0.time != nil }.prefix(10))
        let at = fixes[0].coordinate
        let circle = { (id: String, radius: Int) in
            #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(at.longitude),\#(at.latitude)]},"properties":{"radius":\#(radius)}}"#
        }
        let both = directory.write("both.geojson", #"{"type":"FeatureCollection","features":["# + circle("depot", 500) + "," + circle("yard", 900) + "]}")
        let yardOnly = directory.write("yard.geojson", #"{"type":"FeatureCollection","features":["# + circle("yard", 900) + "]}")
        #expect(try FleetRun.geowake(["fleet", "regions", "put", both, "--set", "depots"] + cluster.fleetOptions).status == 0)
        let second = try FleetRun.worker("w2", cluster: cluster, log: directory.file("w2.log"), ["--region-set", "depots"])
        worker.kill()
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let publisher = FleetPublisher(connection)
        for (position, fix) in fixes.enumerated() { try publisher.publish(fix, device: "van", position: position) }
        try publisher.flush()
        let entered = try await FleetRun.events(cluster, durable: "check", expected: 2, timeout: .seconds(30))
        #expect(entered["van"]?.count == 2)
        #expect(try FleetRun.geowake(["fleet", "regions", "put", yardOnly, "--set", "depots"] + cluster.fleetOptions).status == 0)
        let removed = try await FleetRun.events(cluster, durable: "check", expected: 1, timeout: .seconds(30))
        let last = try #require(fixes.last)
        var writer = JSONLineWriter(reservingCapacity: 256)
        writer.regionEventLine(RegionEvent(kind: .exit, regionID: "depot", fix: last, reason: .regionRemoved))
        #expect(removed["van"] == [String(decoding: writer.bytes.dropLast(), as: UTF8.self)])
        #expect(second.isRunning)
    }

    @Test("A region set larger than the server's max_payload (384 KB against 64 KB) is stored in chunks and loaded by the worker through the loader of locate: its devices get replay's events over the file")
    func regionSetLargerThanOneMessage() async throws {
        let directory = TemporaryDirectory()
        let cluster = try NATSCluster(nodes: 1, maxPayload: "64KB")
        try await cluster.ready()
        let size = try FileManager.default.attributesOfItem(atPath: packageRoot + "/regions/berlin-1k.geojson")[.size] as! Int
        #expect(size > 64 * 1024 * 5)
        let put = try FleetRun.geowake(["fleet", "regions", "put", "regions/berlin-1k.geojson"] + cluster.fleetOptions)
        #expect(put.status == 0, "\(put.error)")
        #expect(put.output.contains(#""regions":1000"#))
        let worker = try FleetRun.worker("w1", cluster: cluster, log: directory.file("w1.log"))
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let publisher = FleetPublisher(connection)
        for (position, fix) in try PartitionStateTests.fixes().enumerated() {
            for device in 0..<3 { try publisher.publish(fix, device: "van-\(device)", position: position) }
        }
        try publisher.flush()
        let expected = try FleetRun.replayLines(Self.trace)
        let events = try await FleetRun.events(cluster, durable: "check", expected: 3 * expected.count, timeout: .seconds(60))
        for device in 0..<3 { #expect(events["van-\(device)"] == expected, "van-\(device)") }
        #expect(worker.isRunning)
    }

    @Test("A chunk manifest reads back as written; a value that is GeoJSON is no manifest; the tag tells contents apart")
    func chunkManifest() throws {
        let content = Array(repeating: UInt8(ascii: "x"), count: 10_000)
        let manifest = ChunkManifest(of: content, chunkSize: 4096)
        #expect(manifest.chunks == 3 && manifest.bytes == 10_000)
        #expect(try ChunkManifest(manifest.payload) == manifest)
        #expect(try ChunkManifest(Array(#"{"type":"FeatureCollection","features":[]}"#.utf8)) == nil)
        #expect(ChunkManifest.tag(of: content) != ChunkManifest.tag(of: content.dropLast() + [UInt8(ascii: "y")]))
        #expect(manifest.key("city", 2) == "city.chunk.\(manifest.tag).2")
    }

    @Test("A publisher's window whose publishes failed before flush was called is not taken as stored: flush sends it again, for its whole give-up time on the clock though each attempt fails at once, and then throws instead of returning")
    func publisherCountsFailuresFromTheWindowStart() async throws {
        let cluster = try NATSCluster(nodes: 1)
        try await cluster.ready()
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        let publisher = FleetPublisher(connection, giveUpAfterMilliseconds: 2000)
        // No stream takes this subject: JetStream answers each publish "no responders", counted as a failure.
        for i in 0..<10 { try publisher.publish(payload: Array("{}".utf8), subject: "nowhere.\(i)", id: "nowhere:\(i)") }
        let counted = await eventually(within: .seconds(5)) { connection.failureCount == 10 }
        #expect(counted, "the failures were reported before flush")
        let start = ContinuousClock.now
        #expect(throws: FleetError.self) { try publisher.flush() }
        let gaveUpAfter = ContinuousClock.now - start
        #expect(gaveUpAfter >= .seconds(2), "gave up after \(gaveUpAfter)")
        // A round every half second or so, each failing at once: more than one in two seconds.
        #expect(publisher.published == 0 && publisher.resent >= 20 && publisher.resent % 10 == 0, "resent \(publisher.resent)")
    }
}
