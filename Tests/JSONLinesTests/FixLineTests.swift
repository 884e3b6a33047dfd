import Testing
import GeoWakeCore
@testable import JSONLines

@Suite struct FixLineTests {
    /// The field-by-field form `fixLine` must reproduce byte for byte.
    static func fieldByField(_ fix: Fix) -> [UInt8] {
        var writer = JSONLineWriter()
        writer.beginObject()
        writer.fixFields(fix)
        writer.endLine()
        return writer.bytes
    }

    static func line(_ fix: Fix) -> [UInt8] {
        var writer = JSONLineWriter()
        writer.fixLine(fix)
        return writer.bytes
    }

    @Test func reusedWriterPrintsEachDateRight() {
        var writer = JSONLineWriter()
        let start = Timestamp(year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 58)!
        for step in [0, 1, 1, 900, 86_400_000, -86_400_000 * 3, 1, 86_400_000 * 400] {
            let fix = Fix(time: Timestamp(millisecondsSince1970: start.millisecondsSince1970 + Int64(step) * 1_000),
                          coordinate: Coordinate(latitude: 1, longitude: 2))
            writer.removeAll()
            writer.fixLine(fix)
            #expect(writer.bytes == Self.fieldByField(fix))
        }
    }

    @Test func fastLineMatchesFieldByFieldForRandomFixes() {
        var rng = SystemRandomNumberGenerator()
        let awkward: [Double] = [0, -0.0, 0.0005, -0.0005, 0.0004999, 1e-10, -1e-10, 59.9, 181.39, 359.9995,
                                 123456789.123, -9.87654321e8, 1e13, .infinity, -.nan, 0.1 + 0.2]
        func value(_ spread: Double) -> Double {
            Bool.random(using: &rng) ? awkward.randomElement(using: &rng)! : Double.random(in: -spread...spread, using: &rng)
        }
        for _ in 0..<20_000 {
            var fix = Fix(time: Bool.random(using: &rng)
                            ? Timestamp(millisecondsSince1970: Int64.random(in: -10_000_000_000...9_000_000_000_000, using: &rng))
                            : nil,
                          coordinate: Coordinate(latitude: value(90), longitude: value(180)))
            if Bool.random(using: &rng) { fix.altitudeMSL = value(10_000) }
            if Bool.random(using: &rng) { fix.speed = value(300) }
            if Bool.random(using: &rng) { fix.course = value(360) }
            if Bool.random(using: &rng) { fix.horizontalAccuracy = value(100) }
            if Bool.random(using: &rng) { fix.satellites = Int.random(in: -5...40, using: &rng) }
            fix.mode = Bool.random(using: &rng) ? .twoD : .threeD
            #expect(Self.line(fix) == Self.fieldByField(fix), "\(fix)")
        }
    }

    @Test func valuesHalfwayBetweenPrintedDigitsRoundAwayFromZeroAsFieldByField() {
        // 62.5 thousandths exactly: rounded away from zero, either sign.
        var fix = Fix(time: nil, coordinate: Coordinate(latitude: -52.5, longitude: 13.25), altitudeMSL: -0.0625,
                      speed: 0.0625, mode: .threeD)
        #expect(String(decoding: Self.line(fix), as: UTF8.self)
                == "{\"lat\":-52.5,\"lon\":13.25,\"altMSL\":-0.063,\"speed\":0.063,\"mode\":3}\n")
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let units = Double(Int64.random(in: -180_000_000_000...180_000_000_000, using: &rng))
            fix.coordinate = Coordinate(latitude: (units / 2 + 0.5) / 1e9, longitude: (units + 0.5) / 1e9)
            fix.altitudeMSL = (units / 1e6 + 0.5) / 1e3
            #expect(Self.line(fix) == Self.fieldByField(fix), "\(fix)")
        }
    }

    @Test func contractExampleLine() {
        let fix = Fix(time: Timestamp(year: 2014, month: 12, day: 31, hour: 3, minute: 7, second: 19),
                      coordinate: Coordinate(latitude: -37.784788333, longitude: 175.314896667),
                      altitudeMSL: 59.9, speed: 0.355, course: 181.39, mode: .threeD)
        #expect(String(decoding: Self.line(fix), as: UTF8.self)
                == "{\"time\":\"2014-12-31T03:07:19.000Z\",\"lat\":-37.784788333,\"lon\":175.314896667,"
                + "\"altMSL\":59.9,\"speed\":0.355,\"course\":181.39,\"mode\":3}\n")
    }
}
