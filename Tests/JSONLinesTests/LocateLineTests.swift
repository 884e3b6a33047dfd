import Testing
import GeoWakeCore
@testable import JSONLines

/// `LocateLineWriter` against the field-by-field form of the same line.
@Suite struct LocateLineTests {
    static func fieldByField(_ fix: Fix, _ ids: [String]) -> [UInt8] {
        var writer = JSONLineWriter()
        writer.beginObject()
        writer.positionFields(fix)
        writer.field("regions", ids)
        writer.endLine()
        return writer.bytes
    }

    static func quoted(_ ids: [String]) -> QuotedStrings {
        var strings = QuotedStrings()
        for id in ids { Array(id.utf8).withUnsafeBufferPointer { strings.append(utf8: $0) } }
        return strings
    }

    static func drained(_ writer: inout LocateLineWriter) -> [UInt8] {
        var bytes: [UInt8] = []
        writer.drain { bytes += $0 }
        return bytes
    }

    @Test func linesMatchFieldByFieldWithEscapedIDsMissingTimesAndUnprintableCoordinates() {
        let ids = ["r000001", "a \"quoted\" id", "back\\slash", "tab\there", "é", "", "\u{1}"]
        let strings = Self.quoted(ids)
        var rng = SystemRandomNumberGenerator()
        let awkward: [Double] = [0, -0.0, 0.0005, -1e-10, 52.4699815, -179.9999999995, 1e13, .infinity, .nan]
        var writer = LocateLineWriter(capacity: 64)   // smaller than one line: it must grow
        var expected: [UInt8] = []
        for _ in 0..<2_000 {
            let time = Bool.random(using: &rng)
                ? Timestamp(millisecondsSince1970: Int64.random(in: -10_000_000_000...9_000_000_000_000, using: &rng)) : nil
            let fix = Fix(time: time, coordinate: Coordinate(latitude: awkward.randomElement(using: &rng)!,
                                                              longitude: Double.random(in: -180...180, using: &rng)))
            let order = (0..<Int.random(in: 0...ids.count, using: &rng)).map { _ in UInt32.random(in: 0..<UInt32(ids.count), using: &rng) }
            strings.withView { view in order.withUnsafeBufferPointer { writer.line(fix, strings: view, order: $0) } }
            expected += Self.fieldByField(fix, order.map { ids[Int($0)] })
        }
        #expect(Self.drained(&writer) == expected)
    }

    @Test func drainEmptiesTheBuffer() {
        let strings = Self.quoted(["a"])
        var writer = LocateLineWriter()
        let fix = Fix(time: nil, coordinate: Coordinate(latitude: 1.5, longitude: -2))
        strings.withView { view in [UInt32(0)].withUnsafeBufferPointer { writer.line(fix, strings: view, order: $0) } }
        #expect(String(decoding: Self.drained(&writer), as: UTF8.self) == "{\"lat\":1.5,\"lon\":-2,\"regions\":[\"a\"]}\n")
        #expect(writer.count == 0)
        #expect(Self.drained(&writer).isEmpty)
    }
}
