#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Geofencing
@testable import RegionIndex
@testable import Regions

/// Real files that failed and hostile ones that slipped through (issue #12, item 8): each is loaded or
/// rejected with one line naming the file and the place.
@Suite struct HostileRegionInputTests {
    let dir = TemporaryDirectory()

    func load(_ bytes: [UInt8], file: String = "bad.geojson") -> Result<RegionStore, RegionLoadError> {
        let path = dir.path + "/" + file
        let handle = fopen(path, "w")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        fclose(handle)
        do { return .success(try RegionLoader.load(path)) } catch { return .failure(error) }
    }

    func loadError(_ bytes: [UInt8]) -> String? {
        guard case .failure(let error) = load(bytes) else { return nil }
        let prefix = dir.path + "/"
        return error.description.hasPrefix(prefix) ? String(error.description.dropFirst(prefix.count)) : error.description
    }

    func loadError(_ text: String) -> String? { loadError(Array(text.utf8)) }

    @Test func longitudeFloatNoiseBeyond180IsOnTheAntimeridian() throws {
        let russia = polygonFeature("ru", "[[[179,60],[180.00000000000006,60],[180.00000000000006,61],[179,61],[179,60]]]")
        let pole = circleFeature("pole", 10, 90.0000000001, radius: "100")
        let store = try load(Array(collection(russia, pole).utf8)).get()
        #expect(store.liveCount == 2)
    }

    @Test func longitudeBeyondTheToleranceIsStillRejected() {
        #expect(loadError(collection(circleFeature("c", 180.001, 0, radius: "5")))
            == "bad.geojson: feature 0: the centre: longitude 180.001 is outside -180...180")
    }

    @Test func deeplyNestedPropertiesAreAnErrorNotACrash() {
        let depth = 110_000
        let properties = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let feature = "{\"type\":\"Feature\",\"id\":\"d\",\"geometry\":null,\"properties\":{\"x\":\(properties)}}"
        let message = loadError(collection(feature))
        #expect(message?.hasPrefix("bad.geojson: invalid JSON at line 2") == true)
        #expect(message?.hasSuffix("arrays and objects nested more than 512 deep") == true)
    }

    @Test func bytesAfterTheDocumentAreAnErrorEvenAfterANUL() {
        let message = loadError(Array(collection(circleFeature("c", 1, 1, radius: "5")).utf8) + [0, 0x78])
        #expect(message == "bad.geojson: invalid JSON at line 4, column 1 (in feature 1): only whitespace may follow the FeatureCollection but found byte 0x00")
    }

    @Test func idsThatAreNotUTF8AreRejected() {
        let feature = Array("{\"type\":\"Feature\",\"id\":\"a".utf8) + [0xFF] + Array("\",\"geometry\":null,\"properties\":{}}".utf8)
        let text = Array("{\"type\":\"FeatureCollection\",\"features\":[".utf8) + feature + Array("]}".utf8)
        #expect(loadError(text) == "bad.geojson: invalid JSON at line 1, column 66 (in feature 0): invalid UTF-8 (byte 0xFF) in string")
    }

    @Test func overlongUTF8AndSurrogatesAreRejectedButMultibyteIdsLoad() throws {
        #expect(loadError(Array("{\"type\":\"FeatureCollection\",\"x\":\"".utf8) + [0xC0, 0xAF] + Array("\",\"features\":[]}".utf8))?
            .hasSuffix("invalid UTF-8 (byte 0xC0) in string") == true)
        #expect(loadError(Array("{\"type\":\"FeatureCollection\",\"x\":\"".utf8) + [0xED, 0xA0, 0x80] + Array("\",\"features\":[]}".utf8))?
            .hasSuffix("invalid UTF-8 (bad sequence after byte 0xED) in string") == true)
        let store = try load(Array(collection(circleFeature("Zürich 東京 😀", 8, 47, radius: "5")).utf8)).get()
        #expect(store.liveCount == 1)
    }

    @Test func aHugeDuplicateIdIsCutAndItsControlBytesEscaped() {
        let id = "\\u0007" + String(repeating: "x", count: 100_000)
        let message = loadError(collection(circleFeature(id, 1, 1, radius: "5"), circleFeature(id, 2, 2, radius: "5")))
        let shown = "\"\\u0007" + String(repeating: "x", count: 59) + "\"… (100001 bytes)"
        #expect(message == "bad.geojson: feature 1: duplicate id \(shown) (first used by feature 0 of \(dir.path)/bad.geojson)")
    }

    @Test func aBinaryFileIsNamedByItsByteValueNotPrintedRaw() {
        let message = loadError([0x00, 0x00, 0x27, 0x0A, 0x01, 0x02])
        #expect(message?.contains("\u{0}") == false)
        #expect(message?.contains("byte 0x00") == true || message?.contains("Shapefile") == true)
    }

    @Test func aLoneFeatureIsOneRegion() throws {
        let store = try load(Array(circleFeature("only", 13.4, 52.5, radius: "50").utf8)).get()
        #expect(store.liveCount == 1)
        let typeLast = "{\"id\":\"p\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(unitSquare)},\"type\":\"Feature\"}"
        #expect(try load(Array(typeLast.utf8)).get().liveCount == 1)
    }

    @Test func aLoneFeatureWithTextAfterItIsAnError() {
        #expect(loadError(circleFeature("only", 13.4, 52.5, radius: "50") + " {}")?
            .hasSuffix("only whitespace may follow the Feature but found '{'") == true)
    }

    @Test func aFeatureWithoutTypeFeatureIsAnError() {
        let untyped = "{\"id\":\"u\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,1]},\"properties\":{\"radius\":5}}"
        #expect(loadError(collection(untyped)) == "bad.geojson: feature 0: the feature has no \"type\": \"Feature\" member")
    }
}
