import CNATS
import Foundation
import GeoWakeCore
import Geofencing
import JSONLines
import RegionIndex
import Regions
import Testing
import TestSupport
import Traces
@testable import Fleet

/// The per-partition state machine without NATS: what a worker does with each message, and what a
/// checkpoint carries across a takeover.
@Suite struct PartitionStateTests {
    typealias Emitted = (device: String, sequence: UInt64, index: Int, line: String)

    static func fixes(_ trace: String = "traces/berlin-drive.nmea") throws -> [Fix] {
        var fixes: [Fix] = []
        _ = try TraceFile.read(packageRoot + "/" + trace) { fixes.append($0) }
        return fixes
    }

    static func payload(_ fix: Fix) -> [UInt8] {
        var writer = JSONLineWriter(reservingCapacity: 256)
        DevicePayload.fixLine(fix, into: &writer)
        return writer.bytes
    }

    /// Sources whose only set, `default`, is `regions` at every revision.
    static func sources(_ regions: RegionIndex) -> PartitionSources {
        PartitionSources(regions: { _, _ in regions }, assignments: { _ in throw FleetError("no assignments here") })
    }

    static func state(_ checkpoint: PartitionCheckpoint = PartitionCheckpoint(), regions: RegionIndex,
                      services: FleetServices = FleetServices()) throws -> PartitionState {
        try PartitionState(partition: 0, services: services, checkpoint: checkpoint, sources: sources(regions))
    }

    static func feed(_ state: inout PartitionState, _ fixes: ArraySlice<Fix>, firstSequence: UInt64, regions: RegionIndex,
                     device: String = "van", into emitted: inout [Emitted]) throws {
        for (offset, fix) in fixes.enumerated() {
            try state.apply(sequence: firstSequence + UInt64(offset), subject: "geowake.in.0.fix.\(device)", payload: payload(fix),
                            sources: sources(regions)) { device, sequence, lines in
                for (index, line) in lines.lines.enumerated() { emitted.append((device, sequence, index, line)) }
            }
        }
    }

    @Test("A partition checkpointed mid-trace and restored from its encoded checkpoint gives the events, ids and lines of an uninterrupted run, which are replay's")
    func checkpointRestoreContinuesExactly() throws {
        let regions = RegionIndex(try RegionLoader.load(packageRoot + "/regions/berlin-1k.geojson"))
        let fixes = try Self.fixes()
        var whole: [Emitted] = []
        var uninterrupted = try Self.state(regions: regions)
        try Self.feed(&uninterrupted, fixes[...], firstSequence: 1, regions: regions, into: &whole)

        var resumed: [Emitted] = []
        let half = fixes.count / 2
        var first = try Self.state(regions: regions)
        try Self.feed(&first, fixes[..<half], firstSequence: 1, regions: regions, into: &resumed)
        let checkpoint = try PartitionCheckpoint.decoded(first.encodedCheckpoint())
        #expect(checkpoint.sequence == UInt64(half))
        #expect(checkpoint.devices == first.checkpoint.devices)
        #expect(checkpoint.devices.first?.regionSets.first?.monitor.regions.isEmpty == false, "the van is inside regions at mid-trace")
        #expect(checkpoint.counts == first.counts)
        var second = try Self.state(checkpoint, regions: regions)
        // The messages before the checkpoint come again (a consumer re-created at an earlier sequence): skipped.
        try Self.feed(&second, fixes[(half - 10)...], firstSequence: UInt64(half - 10 + 1), regions: regions, into: &resumed)

        #expect(resumed.map { "\($0.device):\($0.sequence):\($0.index) \($0.line)" }
                == whole.map { "\($0.device):\($0.sequence):\($0.index) \($0.line)" })
        let replay = try FleetRun.replayLines("traces/berlin-drive.nmea")
        #expect(whole.map(\.line) == replay)
        #expect(second.counts.fixes == fixes.filter { $0.time != nil }.count)
    }

    @Test("A region set whose new version drops a region a device is inside gives that region's regionRemoved exit, stamped with the device's last fix")
    func removedRegionGivesItsExit() throws {
        let fix = Fix(time: Timestamp(millisecondsSince1970: 1_717_458_600_000),
                      coordinate: Coordinate(latitude: 52.5, longitude: 13.4), horizontalAccuracy: 3)
        let both = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"depot","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"radius":100}},{"type":"Feature","id":"yard","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"radius":200}}]}"#
        let yardOnly = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"yard","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"radius":200}}]}"#
        let versions = [1: both, 2: yardOnly]
        let regionsAt = PartitionSources(regions: { set, revision in
            revision == 0 ? RegionIndex() : RegionIndex(try RegionSets.load(Array(versions[Int(revision)]!.utf8), name: "\(set)@\(revision)"))
        }, assignments: { _ in throw FleetError("no assignments here") })
        var state = try PartitionState(partition: 0, services: FleetServices(), checkpoint: PartitionCheckpoint(), sources: regionsAt)
        var lines: [String] = []
        let emit: PartitionState.Emit = { _, _, body in lines += body.lines }
        try state.apply(sequence: 1, subject: "geowake.in.0.regions", payload: RegionsMarker.payload(set: "default", revision: 1),
                        sources: regionsAt, emit: emit)
        try state.apply(sequence: 2, subject: "geowake.in.0.fix.van", payload: Self.payload(fix), sources: regionsAt, emit: emit)
        try state.apply(sequence: 3, subject: "geowake.in.0.regions", payload: RegionsMarker.payload(set: "other", revision: 2),
                        sources: regionsAt, emit: emit)
        #expect(state.regionSets == ["default": 1, "other": 2], "another set's change is recorded, not applied")
        try state.apply(sequence: 4, subject: "geowake.in.0.regions", payload: RegionsMarker.payload(set: "default", revision: 2),
                        sources: regionsAt, emit: emit)
        #expect(lines == [
            #"{"event":"enter","region":"depot","time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4}"#,
            #"{"event":"enter","region":"yard","time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4}"#,
            #"{"event":"exit","region":"depot","time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4,"reason":"regionRemoved"}"#,
        ])
        let yard = try #require(state.regions("default")?.handle(forID: "yard"))
        #expect(state.devices["van"]?.regionSets.first?.replay.service.isInside(yard) == true)
    }

    @Test("Payloads: geowake's fix line reads back the very fix, OwnTracks' location and gpsd's TPV become fixes, anything else is counted, not fatal")
    func payloads() throws {
        let fix = Fix(time: Timestamp(millisecondsSince1970: 1_717_458_600_123),
                      coordinate: Coordinate(latitude: 52.123456789012345, longitude: 13.000000000000002),
                      altitudeMSL: 35.3, speed: 1.25, course: 359.5, horizontalAccuracy: 2.2, mode: .threeD, satellites: 12)
        #expect(Self.payload(fix).withUnsafeBytes { DevicePayload.read($0) } == .fix(fix))
        let ownTracks = #"{"_type":"location","tid":"ph","lat":52.5,"lon":13.4,"tst":1717458600,"acc":12,"alt":40,"vel":36,"cog":90}"#
        guard case .fix(let owned) = Array(ownTracks.utf8).withUnsafeBytes({ DevicePayload.read($0) }) else {
            Issue.record("OwnTracks location not read")
            return
        }
        #expect(owned.time == Timestamp(millisecondsSince1970: 1_717_458_600_000))
        #expect(owned.horizontalAccuracy == 12 && owned.speed == 10 && owned.course == 90 && owned.altitudeMSL == 40)
        let tpv = #"{"class":"TPV","mode":3,"time":"2024-06-03T23:50:00.000Z","lat":52.5,"lon":13.4,"eph":4.0}"#
        guard case .fix(let fromGPSD) = Array(tpv.utf8).withUnsafeBytes({ DevicePayload.read($0) }) else {
            Issue.record("gpsd TPV not read")
            return
        }
        #expect(fromGPSD.coordinate == Coordinate(latitude: 52.5, longitude: 13.4))
        let read = { (text: String) in Array(text.utf8).withUnsafeBytes { DevicePayload.read($0) } }
        #expect(read(#"{"_type":"lwt","tst":1}"#) == .notAFix)
        #expect(read(#"{"class":"SKY"}"#) == .notAFix)
        #expect(read("not json") == .malformed("not a JSON object"))
        #expect(read(#"{"lat":52.5,"lon":13.4}"#) == .malformed("no time"))
        #expect(read(#"{"time":"2024-06-03T23:50:00.000Z","lat":95,"lon":13.4}"#) == .malformed("lat or lon out of range"))
        #expect(InputSubject("geowake.in.3.owntracks.alice.phone") == .fix(device: "owntracks.alice.phone"))
        #expect(InputSubject("geowake.in.3.fix.van-1") == .fix(device: "van-1"))
        #expect(InputSubject("geowake.in.3.weird") == .unknown)
        let bytes = { (subject: String) in Array(subject.utf8).withUnsafeBufferPointer { InputSubject(bytes: $0) } }
        for subject in ["geowake.in.3.fix.van-1", "geowake.in.3.owntracks.alice.phone", "geowake.in.12.regions",
                        "geowake.in.0.assignments", "geowake.in.3.fix.a.b", "geowake.in.x.fix.van", "geowake.in.3.fix.",
                        "geowake.in.3", "other.in.3.fix.van", "geowake.in.3.weird"] {
            #expect(bytes(subject) == InputSubject(subject), "\(subject)")
        }
    }

    @Test("Payload keys match whole: keys that begin like known ones (latitude, alts, hAccuracy, times) or are cut short of one (la, spee) are ignored")
    func payloadKeysMatchWhole() {
        let text = #"{"times":"x","time":"2024-06-03T23:50:00.000Z","latitude":1,"la":2,"lat":52.5,"lon":13.4,"alts":7,"spee":3,"hAccuracy":9}"#
        guard case .fix(let fix) = Array(text.utf8).withUnsafeBytes({ DevicePayload.read($0) }) else {
            Issue.record("not read as a fix")
            return
        }
        #expect(fix.coordinate == Coordinate(latitude: 52.5, longitude: 13.4))
        #expect(fix.altitudeMSL == nil && fix.speed == nil && fix.horizontalAccuracy == nil)
    }

    @Test("The stream and consumer sequences are read from a JetStream reply subject, with or without domain and account hash (the worker checks the stream's against the metadata call on every batch's first message)")
    func streamSequenceFromReply() throws {
        for (reply, sequence, delivery) in [("$JS.ACK.GEOWAKE_FIXES_0.geowake-partition-0.1.12345.17.1700000000000000000.0", UInt64(12345), UInt64(17)),
                                            ("$JS.ACK.hub.ACCHASH.GEOWAKE_FIXES_3.geowake-partition-3.2.777.3.1700000000000000000.4.tok", 777, 3)] {
            #expect(nats_Open(-1) == NATS_OK, "the library is set up before a message is made outside a connection")
            var message: OpaquePointer?
            #expect(natsMsg_Create(&message, "geowake.in.0.fix.van", reply, "{}", 2) == NATS_OK)
            defer { natsMsg_Destroy(message) }
            let read = try PartitionSubscription.sequences(message!)
            #expect(read.stream == sequence && read.consumer == delivery)
        }
    }
}
