#if canImport(Glibc)
import Glibc
#endif
import Testing
import GeoWakeCore
@testable import Geofencing
import JSONText
@testable import RegionIndex
@testable import Regions
import TestSupport

@Suite struct GeoJSONReaderTests {
    let dir = TemporaryDirectory()

    func load(_ text: String) throws -> RegionStore {
        try RegionLoader.load(dir.write("regions.geojson", text))
    }

    @Test func numbersParseToTheCorrectlyRoundedDouble() throws {
        var rng = SeededGenerator(seed: 3)
        var texts = ["0", "-0.0", "13.4000000", "52.5200001", "1e-7", "-1.5E+2", "179.99999999999997",
                     "0.1000000000000000055511151231257827", "12345678901234567890123", "4.9e-324", "1.7976931348623157e308"]
        for _ in 0..<2000 {
            let digits = Int.random(in: 1...19, using: &rng)
            let mantissa = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            texts.append("\(Bool.random(using: &rng) ? "-" : "")\(Int.random(in: 0...179, using: &rng)).\(mantissa)")
            texts.append("\(Int.random(in: 1...9, using: &rng)).\(mantissa)e\(Int.random(in: -30...30, using: &rng))")
        }
        for text in texts {
            var bytes = Array(text.utf8)
            bytes.append(UInt8(ascii: " "))
            let parsed = try bytes.withUnsafeBytes { raw -> Double in
                var scanner = JSONScanner(raw)
                return try scanner.number()
            }
            #expect(parsed.bitPattern == strtod(text, nil).bitPattern, "\(text)")
        }
    }

    @Test func membersInAnyOrderAndUnknownOnesSkipped() throws {
        let text = collection(
            "{\"properties\":{\"radius\":25.5,\"notifyOnEntry\":false,\"dwell\":120,\"extra\":{\"a\":[1,{\"b\":null}]}},"
                + "\"geometry\":{\"coordinates\":[13.4,52.5,34.0],\"bbox\":[0,0,1,1],\"type\":\"Point\"},\"type\":\"Feature\",\"id\":\"first\"}",
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(unitSquare)},\"properties\":{\"id\":\"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\"\"}}",
            "{\"type\":\"Feature\",\"id\":42,\"geometry\":null,\"properties\":{\"kind\":\"beacon\",\"uuid\":\"f7826da6-4fa2-4e98-8024-bc5b71e0893e\",\"minor\":7}}")
        let store = try load(text)
        #expect(store.liveCount == 3)
        let first = try #require(store.handle(forID: "first"))
        #expect(store.region(first) == Region(id: "first",
                                              shape: .circle(center: Coordinate(latitude: 52.5, longitude: 13.4), radius: 25.5),
                                              notifyOnEntry: false, notifyOnExit: true, dwell: 120))
        #expect(store.handle(forID: "café 😀 \"q\"") != nil)
        let beacon = try #require(store.handle(forID: "42"))
        #expect(store.region(beacon)?.shape == .beacon(BeaconIdentity(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: nil, minor: 7)))
    }

    @Test func multiPolygonWithHolesRoundTripsAndAnswersContainment() throws {
        let outer = "[[0,0],[4,0],[4,4],[0,4],[0,0]]", hole = "[[1,1],[1,3],[3,3],[3,1],[1,1]]"
        let island = "[[10,10],[11,10],[11,11],[10,11],[10,10]]"
        let feature = "{\"type\":\"Feature\",\"id\":\"m\",\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[[\(outer),\(hole)],[\(island)]]}}"
        let store = try load(collection(feature))
        let summary = RegionSummary(store)
        #expect(summary.polygons == 1 && summary.parts == 2 && summary.holes == 1 && summary.vertices == 15)
        #expect(summary.bounds.map { [$0.west, $0.south, $0.east, $0.north] } == [0, 0, 11, 11])
        let index = RegionIndex(store)
        let inside = [(0.5, 0.5), (3.5, 2), (10.5, 10.5)], outside = [(2.0, 2.0), (5.0, 5.0), (-0.5, 1.0)]
        for (x, y) in inside { #expect(index.regions(containing: Coordinate(latitude: y, longitude: x)).count == 1, "\(x) \(y)") }
        for (x, y) in outside { #expect(index.regions(containing: Coordinate(latitude: y, longitude: x)).isEmpty, "\(x) \(y)") }
        guard case let .polygon(mp)? = index.region(index.handle(forID: "m")!)?.shape else { Issue.record("not a polygon"); return }
        #expect(mp.polygons.count == 2 && mp.polygons[0].count == 2 && mp.vertexCount == 15)
    }

    @Test func directoryLoadsEveryRegionsFileInNameOrder() throws {
        let sub = TemporaryDirectory()
        sub.write("b.json", collection(circleFeature("b1", 1, 1, radius: "5")))
        sub.write("a.geojson", collection(circleFeature("a1", 1, 1, radius: "5"), circleFeature("a2", 2, 2, radius: "5")))
        let store = try RegionLoader.load(sub.path)
        #expect(store.handles.map { store.id($0) } == ["a1", "a2", "b1"])
    }
}
