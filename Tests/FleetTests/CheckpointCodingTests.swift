import GeoWakeCore
import RegionIndex
import Regions
import Testing
import TestSupport
@testable import Fleet

/// GWC3's fields: varints and instants as differences read back exactly, and a region's record is small.
@Suite struct CheckpointCodingTests {
    @Test("Varints, zigzag integers and instants written as differences (backwards, far apart, at the extremes) read back exactly")
    func fieldsRoundTrip() throws {
        let unsigned: [UInt64] = [0, 1, 127, 128, 300, 1 << 35, UInt64.max]
        let signed: [Int64] = [0, -1, 1, -64, 64, Int64.min, Int64.max]
        let instants: [Timestamp?] = [Timestamp(millisecondsSince1970: 1_717_458_600_000), nil,
                                      Timestamp(millisecondsSince1970: 1_717_458_600_000), Timestamp(millisecondsSince1970: 5),
                                      Timestamp(millisecondsSince1970: -86_400_000), Timestamp(millisecondsSince1970: 4_102_444_800_000)]
        var out = CheckpointWriter()
        for value in unsigned { out.integer(value) }
        for value in signed { out.signed(value) }
        for value in instants { out.time(value) }
        out.double(-0.0)
        out.string("d-7")
        var input = CheckpointReader(bytes: out.bytes, offset: 0)
        for value in unsigned { #expect(try input.integer() == value) }
        for value in signed { #expect(try input.signed() == value) }
        for value in instants { #expect(try input.time() == value) }
        #expect(try input.double().bitPattern == (-0.0).bitPattern)
        #expect(try input.string() == "d-7")
        #expect(input.offset == out.bytes.count)
        #expect(throws: FleetError.self) { try input.integer() }
    }

    @Test("A region record entered with its neighbours costs its id and three bytes (GWC2's fixed fields made it 25 and the id)")
    func regionRecordsAreSmall() throws {
        let fixes = try PartitionStateTests.fixes()
        let first = try #require(fixes.first { $0.time != nil })
        // 40 circles of 500 m around the van's first fix, as the bench's sets put dozens around every fix.
        let features = (0..<40).map { i in
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(first.coordinate.longitude + Double(i) * 1e-5),"
                + "\(first.coordinate.latitude)]},\"properties\":{\"id\":\"c\(i)\",\"radius\":500}}"
        }
        let text = "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
        let regions = RegionIndex(try Array(text.utf8).withUnsafeBytes { try RegionLoader.load(bytes: $0, name: "circles") })
        var state = try PartitionStateTests.state(regions: regions)
        var emitted: [PartitionStateTests.Emitted] = []
        try PartitionStateTests.feed(&state, [first][...], firstSequence: 1, regions: regions, into: &emitted)
        let records = try #require(state.checkpoint.devices.first?.regionSets.first?.monitor.regions)
        #expect(records.count == 40)
        let empty = try PartitionStateTests.state(regions: regions).encodedCheckpoint().count
        let idBytes = records.reduce(0) { $0 + $1.id.utf8.count }
        // The device's id, last time, set name and last fix take under 150 bytes.
        #expect(state.encodedCheckpoint().count - empty <= 150 + idBytes + 4 * records.count)
    }
}
