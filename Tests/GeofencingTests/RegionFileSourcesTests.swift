#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import GeoWakeCore
@testable import Geofencing
@testable import RegionIndex
@testable import Regions

/// Where regions come from besides a plain GeoJSON file with ids: gzip, files without ids, directories
/// holding other files, and the wrong kinds of file passed by mistake.
@Suite struct RegionFileSourcesTests {
    let dir = TemporaryDirectory()

    func ids(_ store: RegionStore) -> [String] {
        let index = RegionIndex(store)
        var ids: [String] = []
        index.forEachRegion(containing: Coordinate(latitude: 0.5, longitude: 0.5)) { ids.append(index.attributes(of: $0).id) }
        return ids.sorted()
    }

    func square(properties: String, id: String = "") -> String {
        "{\"type\":\"Feature\",\(id)\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(unitSquare)},\"properties\":{\(properties)}}"
    }

    func failure(_ path: String) -> String {
        do { _ = try RegionLoader.load(path); return "loaded" } catch { return error.description }
    }

    @Test func aGzipCompressedRegionsFileLoadsAsTheFileItself() throws {
        let path = dir.write("r.geojson", collection(polygonFeature("a", unitSquare), polygonFeature("b", unitSquare)))
        #expect(system("gzip -k \(path)") == 0)
        #expect(ids(try RegionLoader.load(path + ".gz")) == ["a", "b"])
    }

    @Test func aTruncatedGzipFileIsOneClearError() throws {
        let path = dir.write("r.geojson", collection(polygonFeature("a", unitSquare)))
        #expect(system("gzip -c \(path) | head -c 30 > \(path).gz") == 0)
        #expect(failure(path + ".gz").hasPrefix("\(path).gz: the gzip data is truncated"))
    }

    @Test func idPropertyNamesTheIdOfFilesWithoutOne() throws {
        let path = dir.write("gdal.geojson", collection(square(properties: "\"NAME\":\"Berlin\""), square(properties: "\"NAME\":7")))
        #expect(ids(try RegionLoader.load(path, options: RegionLoadOptions(idProperty: "NAME"))) == ["7", "Berlin"])
        #expect(failure(path).hasSuffix("feature 0: missing id (neither \"id\" nor \"properties.id\"; --id-property NAME or --number-features give one)"))
    }

    @Test func numberFeaturesGivesTheIndexOrFileAndIndexInADirectory() throws {
        let text = collection(square(properties: ""), square(properties: "", id: "\"id\":\"kept\","), square(properties: ""))
        let path = dir.write("geopandas.geojson", text)
        #expect(ids(try RegionLoader.load(path, options: RegionLoadOptions(numberFeatures: true))) == ["0", "2", "kept"])
        let sub = TemporaryDirectory()
        sub.write("a.json", collection(square(properties: "")))
        sub.write("b.geojson", collection(square(properties: "")))
        #expect(ids(try RegionLoader.load(sub.path, options: RegionLoadOptions(numberFeatures: true))) == ["a.json#0", "b.geojson#0"])
    }

    @Test func aDirectoryReportsEveryFileItSkipsAndWhy() throws {
        let sub = TemporaryDirectory()
        sub.write("regions.geojson", collection(polygonFeature("a", unitSquare)))
        sub.write("README.md", "notes")
        sub.write(".hidden.geojson", "{}")
        mkdir(sub.path + "/old", 0o755)
        var skipped: [String] = []
        _ = try RegionLoader.load(sub.path) { skipped.append("\($0): \($1)") }
        #expect(skipped.sorted() == [".hidden.geojson: hidden", "README.md: not named *.geojson or *.json (optionally .gz)",
                                     "old: a directory (subdirectories are not read)"])
    }

    @Test func commonWrongFilesAreNamedWithWhatToDo() {
        #expect(failure(dir.write("x.kml", "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">"))
            == "\(dir.path)/x.kml: a KML file, not GeoJSON: convert it with `ogr2ogr -f GeoJSON regions.geojson FILE.kml`")
        #expect(failure(dir.write("t.gpx", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">"))
            == "\(dir.path)/t.gpx: a GPX trace, not regions: give it as the trace argument")
        #expect(failure(dir.write("t.nmea", "$GPGGA,1*00\r\n")) == "\(dir.path)/t.nmea: an NMEA trace, not regions: give it as the trace argument")
        #expect(failure(dir.write("z.zip", "PK\u{3}\u{4}rest")).hasPrefix("\(dir.path)/z.zip: a zip archive (a zipped Shapefile?), not GeoJSON"))
        #expect(failure(dir.write("t.json", "{\"class\":\"TPV\",\"mode\":2}\n"))
            == "\(dir.path)/t.json: a gpsd JSON trace, not regions: give it as the trace argument")
    }
}
