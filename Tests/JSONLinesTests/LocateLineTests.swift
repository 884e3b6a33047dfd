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

    @Test func repeatedRegionsMatchFieldByFieldAcrossMidnightWithNegativeCoordinatesEscapedAndManyIDs() {
        let ids = (0..<90).map { $0 % 3 == 0 ? "id \"\($0)\"\\\u{1}" : "r\($0)" }
        let strings = Self.quoted(ids)
        var rng = SystemRandomNumberGenerator()
        // 2 s before midnight of 31 December 2023, stepped across it and the new year.
        let midnight: Int64 = 1_704_067_200_000
        var writer = LocateLineWriter(capacity: 64)
        var expected: [UInt8] = [], written: [UInt8] = []
        var order: [UInt32] = []
        for step in 0..<3_000 {
            let fix = Fix(time: Timestamp(millisecondsSince1970: midnight - 2_000 + Int64(step) * 7),
                          coordinate: Coordinate(latitude: Double.random(in: -90...90, using: &rng),
                                                 longitude: -Double.random(in: 0...180, using: &rng)))
            if step == 0 || Int.random(in: 0..<4, using: &rng) == 0 {
                order = (0..<Int.random(in: 0...ids.count, using: &rng)).map { _ in UInt32.random(in: 0..<UInt32(ids.count), using: &rng) }
                strings.withView { view in order.withUnsafeBufferPointer { writer.line(fix, strings: view, order: $0) } }
            } else {
                writer.lineRepeatingRegions(fix)
            }
            expected += Self.fieldByField(fix, order.map { ids[Int($0)] })
            if step % 97 == 0 { written += Self.drained(&writer) }
        }
        written += Self.drained(&writer)
        #expect(written == expected)
        let text = String(decoding: expected, as: UTF8.self)
        #expect(text.hasPrefix("{\"time\":\"2023-12-31T23:59:58.000Z\""))
        #expect(text.contains("{\"time\":\"2024-01-01T00:00:00.002Z\""))
    }

    @Test func aRepeatedLineAfterALineWithoutRegionsHasNone() {
        let strings = Self.quoted(["a"])
        var writer = LocateLineWriter()
        let fix = Fix(time: nil, coordinate: Coordinate(latitude: -1.25, longitude: 2))
        strings.withView { view in [UInt32]().withUnsafeBufferPointer { writer.line(fix, strings: view, order: $0) } }
        writer.lineRepeatingRegions(fix)
        #expect(String(decoding: Self.drained(&writer), as: UTF8.self)
            == "{\"lat\":-1.25,\"lon\":2,\"regions\":[]}\n{\"lat\":-1.25,\"lon\":2,\"regions\":[]}\n")
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
