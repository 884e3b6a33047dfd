
/// Recognises the files most often passed as regions by mistake, from their first bytes, so that the
/// error says what the file is and what to do rather than where its JSON syntax broke.
enum WrongRegionFile {
    static func diagnosis(_ bytes: UnsafeRawBufferPointer) -> String? {
        if starts(bytes, with: [0x50, 0x4B, 0x03, 0x04]) {
            return "a zip archive (a zipped Shapefile?), not GeoJSON: unzip it and convert the .shp with "
                + "`ogr2ogr -f GeoJSON regions.geojson FILE.shp`"
        }
        if starts(bytes, with: [0x00, 0x00, 0x27, 0x0A]) {
            return "an ESRI Shapefile, not GeoJSON: convert it with `ogr2ogr -f GeoJSON regions.geojson FILE.shp`"
        }
        let head = UnsafeRawBufferPointer(rebasing: bytes[0..<min(bytes.count, 4096)])
        guard let first = head.first(where: { $0 > 0x20 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) else { return nil }
        if first == UInt8(ascii: "<") {
            if contains(head, "<kml") {
                return "a KML file, not GeoJSON: convert it with `ogr2ogr -f GeoJSON regions.geojson FILE.kml`"
            }
            if contains(head, "<gpx") { return "a GPX trace, not regions: give it as the trace argument" }
            return "an XML file, not GeoJSON"
        }
        if first == UInt8(ascii: "$") { return "an NMEA trace, not regions: give it as the trace argument" }
        if first == UInt8(ascii: "{") && contains(head, "\"class\"") && contains(head, "\"TPV\"") {
            return "a gpsd JSON trace, not regions: give it as the trace argument"
        }
        return nil
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, with magic: [UInt8]) -> Bool {
        bytes.count >= magic.count && zip(bytes, magic).allSatisfy { $0 == $1 }
    }

    private static func contains(_ bytes: UnsafeRawBufferPointer, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { i in
            (0..<needle.count).allSatisfy { bytes[i + $0] | 0x20 == needle[$0] | 0x20 }
        }
    }
}
