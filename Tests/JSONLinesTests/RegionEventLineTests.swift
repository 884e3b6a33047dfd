import Testing
import GeoWakeCore
@testable import JSONLines

@Suite struct RegionEventLineTests {
    /// The field-by-field form `regionEventLine` must reproduce byte for byte.
    static func fieldByField(_ event: RegionEvent) -> [UInt8] {
        var writer = JSONLineWriter()
        writer.beginObject()
        writer.regionEventFields(event)
        writer.endLine()
        return writer.bytes
    }

    @Test func lineMatchesFieldByFieldForRandomEvents() {
        var rng = SystemRandomNumberGenerator()
        let ids = ["a", "", "zone-42", "caf\u{e9} \u{1F600}", "quote\"d", "back\\slash", "tab\there", "nl\n",
                   String(repeating: "x", count: 200), String(repeating: "y", count: 201), String(repeating: "z", count: 5_000)]
        let awkward: [Double] = [0, -0.0, 0.0000000005, -0.0000000005, 1e-10, 59.9, -37.784788333, 1e13, .infinity, -.nan]
        func value(_ spread: Double) -> Double {
            Bool.random(using: &rng) ? awkward.randomElement(using: &rng)! : Double.random(in: -spread...spread, using: &rng)
        }
        var writer = JSONLineWriter()
        var expected: [UInt8] = []
        for _ in 0..<20_000 {
            let fix = Fix(time: Bool.random(using: &rng)
                            ? Timestamp(millisecondsSince1970: Int64.random(in: -10_000_000_000...9_000_000_000_000, using: &rng))
                            : nil,
                          coordinate: Coordinate(latitude: value(90), longitude: value(180)))
            let event = RegionEvent(kind: RegionEvent.Kind.allCases.randomElement(using: &rng)!,
                                    regionID: ids.randomElement(using: &rng)!, fix: fix, crossed: Bool.random(using: &rng))
            writer.regionEventLine(event)
            expected += Self.fieldByField(event)
        }
        #expect(writer.bytes == expected)
    }

    @Test func contractExampleLine() {
        let fix = Fix(time: Timestamp(year: 2014, month: 12, day: 31, hour: 3, minute: 7, second: 19),
                      coordinate: Coordinate(latitude: -37.784788333, longitude: 175.314896667))
        var writer = JSONLineWriter()
        writer.regionEventLine(RegionEvent(kind: .enter, regionID: "home", fix: fix, crossed: true))
        #expect(String(decoding: writer.bytes, as: UTF8.self)
                == "{\"event\":\"enter\",\"region\":\"home\",\"time\":\"2014-12-31T03:07:19.000Z\","
                + "\"lat\":-37.784788333,\"lon\":175.314896667,\"crossed\":true}\n")
    }
}
