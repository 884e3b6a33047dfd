import Testing
import GeoWakeCore
@testable import RegionIndex
@testable import Regions

/// `RegionLoader.load(name:features:)`, the daemon's restart: features handed one at a time, each under the id it is
/// given, load as the same features in one document do, and a failure names the feature's place in the stream.
@Suite struct FeatureStreamLoadingTests {
    let features = [
        polygonFeature("a", "[[[13.30,52.50],[13.31,52.50],[13.31,52.51],[13.30,52.51],[13.30,52.50]]]"),
        circleFeature("b", 13.40, 52.52, radius: "150"),
        polygonFeature("c", "[[[13.0,52.0],[13.2,52.0],[13.2,52.2],[13.0,52.2],[13.0,52.0]],[[13.05,52.05],[13.1,52.05],[13.1,52.1],[13.05,52.05]]]"),
    ]

    func streamed(_ features: [String], ids: [String], failing feedError: Error? = nil) -> Result<RegionStore, RegionLoadError> {
        Result { () throws(RegionLoadError) in
            try RegionLoader.load(name: "the store") { put in
                for (feature, id) in zip(features, ids) {
                    let bytes = Array(feature.utf8)
                    try bytes.withUnsafeBytes { try put($0, Array(id.utf8)) }
                }
                if let feedError { throw feedError }
            }
        }
    }

    @Test func featuresHandedOneByOneLoadAsTheSameDocumentDoesUnderTheIdsGiven() throws {
        let ids = ["owner\u{1F}a", "owner\u{1F}b", "owner\u{1F}c"]
        let store = try streamed(features, ids: ids).get()
        let document = Array(collection(features[0], features[1], features[2]).utf8)
        let whole = try document.withUnsafeBytes { try RegionLoader.load(bytes: $0, name: "document", id: { Array(ids[$0].utf8) }) }
        #expect(store.handles.map(store.id) == ids)
        #expect(store.handles.map { store.region($0) } == whole.handles.map { whole.region($0) })
    }

    /// The stream's store is left untrimmed: the index built over it must trim it as it lays the shapes out.
    @Test func anIndexOverTheStreamedStoreIsAsCompactAsOneOverATrimmedStore() throws {
        let many = (0..<300).map { n in
            n % 2 == 0 ? circleFeature("c\(n)", 13 + Double(n) / 1000, 52.5, radius: "40")
                : polygonFeature("p\(n)", "[[[\(13 + Double(n) / 1000),52.6],[\(13.0005 + Double(n) / 1000),52.6],[\(13 + Double(n) / 1000),52.6005],[\(13 + Double(n) / 1000),52.6]]]")
        }
        let store = try streamed(many, ids: many.indices.map { "id\($0)" }).get()
        var trimmed = store
        trimmed.shrinkToFit()
        let spare = store.memoryFootprint - trimmed.memoryFootprint
        #expect(spare > 1024, "the streamed store keeps spare capacity for the index to trim: \(spare) bytes")
        // Not to the byte: a trimmed array's capacity is what malloc's block holds, which varies by a few bytes.
        let difference = abs(RegionIndex(store).memoryFootprint - RegionIndex(trimmed).memoryFootprint)
        #expect(difference < spare / 8, "the index over the streamed store kept \(difference) of its \(spare) spare bytes")
    }

    @Test func anInvalidFeatureIsNamedByItsPlaceInTheStream() {
        let selfCrossing = polygonFeature("bow", "[[[0,0],[1,1],[1,0],[0,1],[0,0]]]")
        guard case .failure(let error) = streamed([features[0], features[1], selfCrossing], ids: ["x", "y", "z"]) else {
            Issue.record("a self-crossing polygon loaded")
            return
        }
        #expect(error.file == "the store")
        #expect(error.feature == 2)
    }

    @Test func aFeatureThatIsNotJSONIsNamedByItsPlaceInTheStream() {
        guard case .failure(let error) = streamed([features[0], "{\"type\":\"Feature\",\"geometry\":"], ids: ["x", "y"]) else {
            Issue.record("a truncated feature loaded")
            return
        }
        #expect(error.feature == 1)
        #expect(error.description.hasPrefix("the store: feature 1: "))
    }

    @Test func anErrorOfTheFeedFailsTheLoadWithItsMessage() {
        struct Unreadable: Error, CustomStringConvertible { var description: String { "disk I/O error" } }
        guard case .failure(let error) = streamed([features[0]], ids: ["x"], failing: Unreadable()) else {
            Issue.record("a load whose feed failed succeeded")
            return
        }
        #expect(error.description == "the store: disk I/O error")
    }
}
