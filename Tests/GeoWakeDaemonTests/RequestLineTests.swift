import Foundation
import GeoWakeProtocol
@testable import GeoWakeDaemon
import Testing

/// A request line is read once: every value checked, the features' shapes kept only as their texts (the loader reads
/// those), with what the beacon check needs left in the values.
@Suite struct RequestLineTests {
    static func parsed(_ line: String) -> (RequestLine, [String]?)? {
        let bytes = Array(line.utf8)
        guard let parsed = try? RequestLine.read(bytes[...]).get() else { return nil }
        return (parsed, parsed.featureTexts(bytes[...]))
    }

    @Test func featureGeometriesAreKeptEmptyAndTheirTextsWhole() throws {
        let polygon = #"{"type":"Feature","id":"a","properties":{"radius":5},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
        let beacon = #"{"type":"Feature","id":"b","properties":{"kind":"beacon"},"geometry":null}"#
        let line = #"{"op":"monitor","id":7,"features":[\#(polygon),\#(beacon)]}"#
        let (request, texts) = try #require(Self.parsed(line))
        let features = try #require(request.fields["features"]?.array)
        #expect(features[0]["geometry"] == .object([:]))
        #expect(features[0]["properties"]?["radius"] == .number(5))
        #expect(features[0]["id"] == "a")
        #expect(features[1]["geometry"] == .null)
        #expect(texts == [polygon, beacon])
    }

    @Test func aFeatureCollectionsFeaturesAreCutWithoutTheSpaceAroundThem() throws {
        let a = #"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"radius":3}}"#
        let b = #"{ "type" : "Feature", "id" : "b", "geometry" : null, "properties" : { "kind" : "beacon" } }"#
        let line = #"{"op":"monitor","features":{"type":"FeatureCollection","bbox":[0,0,1,1],"features":[ "# + a + " ," + b + "\n]}}"
        let (request, texts) = try #require(Self.parsed(line))
        #expect(texts == [a, b])
        #expect(request.fields["features"]?["features"]?.array?.count == 2)
        #expect(request.fields["features"]?["bbox"] == .array([0, 0, 1, 1].map { .number($0) }))
    }

    @Test func aRepeatedFeaturesMemberCountsByItsLastValue() throws {
        let a = #"{"type":"Feature","id":"a","geometry":null}"#
        let (request, texts) = try #require(Self.parsed(#"{"op":"monitor","features":{"features":[\#(a),\#(a)],"features":[\#(a)]}}"#))
        #expect(texts == [a])
        #expect(request.fields["features"]?["features"]?.array?.count == 1)
        let (_, none) = try #require(Self.parsed(#"{"op":"monitor","features":{"features":[\#(a)],"features":5}}"#))
        #expect(none == nil)
    }

    @Test func anInvalidValueInsideAGeometryStillRefusesTheLine() {
        #expect(Self.parsed(#"{"op":"monitor","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"x":tru}]}"#) == nil)
        #expect(Self.parsed(#"{"op":"monitor","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,]}}]}"#) == nil)
        #expect(Self.parsed(#"{"op":"monitor","features":[{"type":"Feature","geometry":{"type":"Point","bbox":[1,2],}}]}"#) == nil)
    }
}
