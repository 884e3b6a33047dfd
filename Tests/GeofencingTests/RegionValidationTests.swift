import Testing
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions
import TestSupport

/// Every way a regions file can be wrong, each with the one line the user sees.
@Suite struct RegionValidationTests {
    let dir = TemporaryDirectory()

    func loadError(_ text: String, file: String = "bad.geojson") -> String? {
        let path = dir.write(file, text)
        do {
            _ = try RegionLoader.load(path)
            return nil
        } catch {
            let prefix = dir.path + "/"
            return error.description.hasPrefix(prefix) ? String(error.description.dropFirst(prefix.count)) : error.description
        }
    }

    @Test func selfIntersectingRingIsNamedWithGEOSReasonAndPlace() {
        let bowtie = polygonFeature("bowtie", "[[[0,0],[1,1],[1,0],[0,1],[0,0]]]")
        #expect(loadError(collection(circleFeature("ok", 1, 1, radius: "5"), bowtie))
            == "bad.geojson: feature 1: invalid polygon: Self-intersection at [0.5, 0.5]")
    }

    @Test func holeOutsideItsShellIsInvalid() {
        let rings = "[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[2,2],[2,3],[3,3],[3,2],[2,2]]]"
        #expect(loadError(collection(polygonFeature("h", rings)))
            == "bad.geojson: feature 0: invalid polygon: Hole lies outside shell at [2.0, 2.0]")
    }

    @Test func unclosedRing() {
        #expect(loadError(collection(polygonFeature("u", "[[[0,0],[1,0],[1,1],[0,1],[0,0.5]]]")))
            == "bad.geojson: feature 0: polygon 0, ring 0 is not closed: its last position differs from its first")
    }

    @Test func ringWithFewerThanFourPositions() {
        #expect(loadError(collection(polygonFeature("s", "[[[0,0],[1,0],[0,0]]]")))
            == "bad.geojson: feature 0: polygon 0, ring 0 has 3 positions; a ring needs at least 4")
    }

    @Test func notANumberCoordinate() {
        #expect(loadError(collection(polygonFeature("n", "[[[0,0],[1,NaN],[1,1],[0,1],[0,0]]]")))
            == "bad.geojson: feature 0: polygon 0, ring 0, position 1: coordinate is not a finite number ([1.0, nan])")
    }

    @Test func latitudeAndLongitudeOutOfRange() {
        #expect(loadError(collection(circleFeature("c", 13.4, 91.5, radius: "10")))
            == "bad.geojson: feature 0: the centre: latitude 91.5 is outside -90...90")
        #expect(loadError(collection(polygonFeature("p", "[[[0,0],[181,0],[1,1],[0,0]]]")))
            == "bad.geojson: feature 0: polygon 0, ring 0, position 1: longitude 181.0 is outside -180...180")
    }

    @Test func ringCrossingTheAntimeridianMustBeSplitThere() {
        let rings = "[[[179,0],[-179,0],[-179,1],[179,1],[179,0]]]"
        #expect(loadError(collection(polygonFeature("fiji", rings)))
            == "bad.geojson: feature 0: polygon 0, ring 0 crosses the antimeridian between positions 0 and 1 "
            + "([179.0, 0.0] to [-179.0, 0.0]); split it there (RFC 7946, section 3.1.9)")
    }

    @Test func ringBoundedByBothAntimeridiansAndThePoleIsValid() throws {
        let antarctica = "[[[-180,-90],[180,-90],[180,-70],[0,-65],[-180,-70],[-180,-90]]]"
        let store = try RegionLoader.load(dir.write("ok.geojson", collection(polygonFeature("aq", antarctica))))
        let index = RegionIndex(store)
        #expect(index.regions(containing: Coordinate(latitude: -80, longitude: 179.9)).count == 1)
        #expect(index.regions(containing: Coordinate(latitude: -80, longitude: -179.9)).count == 1)
        #expect(index.regions(containing: Coordinate(latitude: -60, longitude: 0)).isEmpty)
    }

    @Test func duplicateIDInOneFile() {
        #expect(loadError(collection(circleFeature("a", 1, 1, radius: "5"), circleFeature("a", 2, 2, radius: "5")))
            == "bad.geojson: feature 1: duplicate id \"a\" (first used by feature 0 of \(dir.path)/bad.geojson)")
    }

    @Test func duplicateIDAcrossFilesOfADirectoryFailsTheWholeLoad() {
        let sub = TemporaryDirectory()
        sub.write("a.geojson", collection(circleFeature("x", 1, 1, radius: "5"), circleFeature("y", 1, 1, radius: "5")))
        sub.write("b.json", collection(circleFeature("z", 1, 1, radius: "5"), circleFeature("y", 3, 3, radius: "5")))
        sub.write("notes.txt", "ignored: not a regions file")
        var store = RegionStore()
        #expect(throws: RegionLoadError.self) { try RegionLoader.load(sub.path, into: &store) }
        #expect(store.liveCount == 0, "nothing is half-loaded")
        do {
            _ = try RegionLoader.load(sub.path)
        } catch {
            #expect(error.description == "\(sub.path)/b.json: feature 1: duplicate id \"y\" (first used by feature 1 of \(sub.path)/a.geojson)")
        }
    }

    /// Features are validated on a second thread while later ones are parsed: the first error in the
    /// file is still the one reported, however far the reader has run ahead.
    @Test func anInvalidFeatureIsReportedBeforeALaterSyntaxError() {
        let bowtie = polygonFeature("bowtie", "[[[0,0],[1,1],[1,0],[0,1],[0,0]]]")
        let later = (0..<300).map { circleFeature("c\($0)", 1, 1, radius: "5") }.joined(separator: ",\n")
        let text = "{\"type\":\"FeatureCollection\",\"features\":[\n" + circleFeature("ok", 1, 1, radius: "5") + ",\n"
            + bowtie + ",\n" + later + ",\n{\"type\":\"Feature\" \"id\":1}]}"
        #expect(loadError(text) == "bad.geojson: feature 1: invalid polygon: Self-intersection at [0.5, 0.5]")
        let valid = "{\"type\":\"FeatureCollection\",\"features\":[\n" + later + ",\n{\"type\":\"Feature\" \"id\":1}]}"
        #expect(loadError(valid)?.hasPrefix("bad.geojson: invalid JSON at line 302") == true)
    }

    @Test func aDuplicateFarBehindItsFirstUseNamesBoth() {
        let features = (0..<500).map { circleFeature("c\($0)", 1, 1, radius: "5") } + [circleFeature("c3", 2, 2, radius: "5")]
        #expect(loadError("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}")
            == "bad.geojson: feature 500: duplicate id \"c3\" (first used by feature 3 of \(dir.path)/bad.geojson)")
    }

    @Test func missingID() {
        let feature = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,1]},\"properties\":{\"radius\":3}}"
        #expect(loadError(collection(feature)) == "bad.geojson: feature 0: missing id (neither \"id\" nor \"properties.id\"; --id-property NAME or --number-features give one)")
    }

    @Test func circleNeedsAPositiveRadius() {
        let noRadius = "{\"type\":\"Feature\",\"id\":\"c\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,1]},\"properties\":{}}"
        #expect(loadError(collection(noRadius)) == "bad.geojson: feature 0: a Point region needs properties.radius (metres > 0)")
        #expect(loadError(collection(circleFeature("c", 1, 1, radius: "-4")))
            == "bad.geojson: feature 0: radius must be a number of metres > 0, found -4.0")
    }

    @Test func beaconRegionsNeedAWellFormedUUIDAndSixteenBitNumbers() {
        func beacon(_ properties: String) -> String {
            "{\"type\":\"Feature\",\"id\":\"b\",\"geometry\":null,\"properties\":{\"kind\":\"beacon\"\(properties)}}"
        }
        #expect(loadError(collection(beacon(""))) == "bad.geojson: feature 0: a beacon region needs properties.uuid")
        #expect(loadError(collection(beacon(",\"uuid\":\"not-a-uuid\"")))
            == "bad.geojson: feature 0: beacon uuid \"not-a-uuid\" is not of the form 8-4-4-4-12 hexadecimal digits")
        #expect(loadError(collection(beacon(",\"uuid\":\"f7826da6-4fa2-4e98-8024-bc5b71e0893e\",\"major\":70000")))
            == "bad.geojson: feature 0: beacon major must be an integer from 0 to 65535, found 70000.0")
        let nullGeometry = "{\"type\":\"Feature\",\"id\":\"n\",\"geometry\":null,\"properties\":{}}"
        #expect(loadError(collection(nullGeometry)) == "bad.geojson: feature 0: the geometry is null but properties.kind is not \"beacon\"")
    }

    @Test func unsupportedGeometryAndBadNesting() {
        let line = "{\"type\":\"Feature\",\"id\":\"l\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}}"
        #expect(loadError(collection(line))
            == "bad.geojson: feature 0: unsupported geometry type \"LineString\" (expected Point, Polygon, MultiPolygon or null)")
        #expect(loadError(collection(polygonFeature("p", "[[0,0],[1,0],[1,1],[0,0]]")))
            == "bad.geojson: feature 0: the Polygon's coordinates are nested 2 deep, expected 3")
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        #expect(loadError("{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\" \"id\":1}]}")
            == "bad.geojson: invalid JSON at line 2, column 19 (in feature 0): expected ',' or '}' but found '\"'")
        #expect(loadError("{\"type\":\"Topology\",\"features\":[]}")
            == "bad.geojson: expected a GeoJSON FeatureCollection or Feature, found type \"Topology\"")
    }

    @Test func unreadablePathsAreOneLineErrors() {
        #expect(throws: RegionLoadError.self) { try RegionLoader.load(dir.path + "/missing.geojson") }
        do { _ = try RegionLoader.load(dir.path + "/missing.geojson") } catch {
            #expect(error.description.hasSuffix("missing.geojson: No such file or directory"))
        }
        #expect(loadError("") == "bad.geojson: the file is empty")
    }

    @Test func addingAnInvalidRegionLeavesTheIndexUnchanged() throws {
        var index = try RegionIndex(regions: [Region.circle(id: "a", latitude: 1, longitude: 1, radius: 10)])
        let bowtie = [[0.0, 0.0], [1, 1], [1, 0], [0, 1], [0, 0]].map { Coordinate(latitude: $0[1], longitude: $0[0]) }
        #expect(throws: InvalidRegion.self) {
            try index.add(Region(id: "b", shape: .polygon(MultiPolygon(polygons: [[bowtie]]))))
        }
        #expect(throws: InvalidRegion.self) { try index.add(Region.circle(id: "a", latitude: 2, longitude: 2, radius: 10)) }
        #expect(index.count == 1)
        #expect(index.handle(forID: "b") == nil)
    }
}
