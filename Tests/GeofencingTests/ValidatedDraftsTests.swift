import Testing
import GeoWakeCore
@testable import RegionIndex
@testable import Regions

/// `RegionLoader.validatedDrafts(bytes:name:)`, the daemon's `monitor`: a document's drafts, added to an index, are the
/// regions `load(bytes:name:)` makes of it, and a document it refuses is refused with the same message.
@Suite struct ValidatedDraftsTests {
    let features = [
        polygonFeature("a", "[[[13.30,52.50],[13.31,52.50],[13.31,52.51],[13.30,52.51],[13.30,52.50]]]"),
        circleFeature("b", 13.40, 52.52, radius: "150"),
        polygonFeature("c", "[[[13.0,52.0],[13.2,52.0],[13.2,52.2],[13.0,52.2],[13.0,52.0]],[[13.05,52.05],[13.1,52.05],[13.1,52.1],[13.05,52.05]]]"),
        #"{"type":"Feature","id":"d","properties":{"notifyOnEntry":false,"dwell":30},"geometry":{"type":"MultiPolygon","coordinates":[[[[1,1],[2,1],[2,2],[1,1]]],[[[3,3],[4,3],[4,4],[3,3]]]]}}"#,
    ]

    static func drafts(_ document: String) -> Result<[FeatureDraft], RegionLoadError> {
        Array(document.utf8).withUnsafeBytes { bytes in
            Result { () throws(RegionLoadError) in try RegionLoader.validatedDrafts(bytes: bytes, name: "request") }
        }
    }

    static func loaded(_ document: String) -> Result<RegionStore, RegionLoadError> {
        Array(document.utf8).withUnsafeBytes { bytes in
            Result { () throws(RegionLoadError) in try RegionLoader.load(bytes: bytes, name: "request") }
        }
    }

    @Test func draftsAddedToAnIndexAreTheRegionsTheLoaderStores() throws {
        let document = collection(features[0], features[1], features[2], features[3])
        var index = RegionIndex()
        let handles = try index.add(validated: Self.drafts(document).get())
        let store = try Self.loaded(document).get()
        #expect(handles.map { index.region($0) } == store.handles.map { store.region($0) })
        #expect(handles.compactMap { index.region($0)?.id } == ["a", "b", "c", "d"])
    }

    @Test(arguments: [
        collection(polygonFeature("a", "[[[0,0],[1,0],[1,1],[0,0]]]"), polygonFeature("bow", "[[[0,0],[1,1],[1,0],[0,1],[0,0]]]")),
        collection(circleFeature("a", 1, 2, radius: "5"), circleFeature("b", 1, 2, radius: "5"), circleFeature("a", 3, 4, radius: "5")),
        collection(circleFeature("a", 1, 2, radius: "-5")),
        collection(circleFeature("a", 1, 2, radius: "5")) + "x",
        #"{"type":"Feature","id":"a","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#,
        #"[{"type":"Feature"}]"#,
    ])
    func aRefusedDocumentIsRefusedWithTheLoadersMessage(_ document: String) {
        guard case .failure(let error) = Self.drafts(document), case .failure(let expected) = Self.loaded(document) else {
            Issue.record("loaded: \(document)")
            return
        }
        #expect(error.description == expected.description)
        #expect(error.feature == expected.feature)
    }
}
