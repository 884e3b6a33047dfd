import Foundation

/// Reads the beacon regions of a region file or directory: features with a null geometry and
/// `properties.kind = "beacon"`. Geographic features in the same files are left to the geographic loader.
public enum BeaconRegionFile {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Files in a directory are read in byte order of their names, `*.geojson` and `*.json`.
    public static func load(_ path: String) throws(Failure) -> [BeaconRegion] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(description: "\(path): no such file or directory")
        }
        var files = [path]
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files = names.filter { $0.hasSuffix(".geojson") || $0.hasSuffix(".json") }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                .map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
        }
        var regions: [BeaconRegion] = []
        var seen: [String: String] = [:]
        for file in files {
            for region in try regionsIn(file: file) {
                if let other = seen[region.id] {
                    throw Failure(description: "\(file): duplicate region id \"\(region.id)\" (also in \(other))")
                }
                seen[region.id] = file
                regions.append(region)
            }
        }
        return regions
    }

    static func regionsIn(file: String) throws(Failure) -> [BeaconRegion] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Failure(description: "\(file): cannot read")
        }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw Failure(description: "\(file): not valid JSON")
        }
        guard let root = json as? [String: Any], let features = root["features"] as? [Any] else {
            throw Failure(description: "\(file): not a GeoJSON FeatureCollection (no \"features\" array)")
        }
        var regions: [BeaconRegion] = []
        for (index, feature) in features.enumerated() {
            do throws(Failure) {
                if let region = try beaconRegion(feature) { regions.append(region) }
            } catch {
                throw Failure(description: "\(file): feature \(index): \(error.description)")
            }
        }
        return regions
    }

    /// nil for a geographic feature.
    public static func beaconRegion(_ feature: Any) throws(Failure) -> BeaconRegion? {
        guard let feature = feature as? [String: Any] else { throw Failure(description: "a feature must be an object") }
        let properties = feature["properties"] as? [String: Any] ?? [:]
        guard properties["kind"] as? String == "beacon" else { return nil }
        guard feature["geometry"] is NSNull || feature["geometry"] == nil else {
            throw Failure(description: "a beacon region must have a null geometry")
        }
        guard let id = idText(feature["id"]) ?? idText(properties["id"]) else {
            throw Failure(description: "missing id (neither \"id\" nor \"properties.id\")")
        }
        guard let text = properties["uuid"] as? String else {
            throw Failure(description: "a beacon region needs properties.uuid")
        }
        guard let uuid = BeaconUUID(text) else {
            throw Failure(description: "beacon uuid \"\(text)\" is not of the form 8-4-4-4-12 hexadecimal digits")
        }
        var format: BeaconFormat?
        if let value = properties["format"], !(value is NSNull) {
            guard let name = value as? String, let known = BeaconFormat(rawValue: name) else {
                throw Failure(description: "\"format\" must be \"ibeacon\" or \"altbeacon\"")
            }
            format = known
        }
        return BeaconRegion(id: id, uuid: uuid, major: try identifierPart(properties, "major"),
                            minor: try identifierPart(properties, "minor"), format: format,
                            notifyOnEntry: try flag(properties, "notifyOnEntry"),
                            notifyOnExit: try flag(properties, "notifyOnExit"))
    }

    private static func idText(_ value: Any?) -> String? {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }

    private static func identifierPart(_ properties: [String: Any], _ key: String) throws(Failure) -> UInt16? {
        guard let value = properties[key], !(value is NSNull) else { return nil }
        guard let number = value as? NSNumber, number.doubleValue == number.doubleValue.rounded(),
              (0...65535).contains(number.doubleValue) else {
            throw Failure(description: "\"\(key)\" must be an integer 0–65535, found \(value)")
        }
        return UInt16(number.doubleValue)
    }

    private static func flag(_ properties: [String: Any], _ key: String) throws(Failure) -> Bool {
        guard let value = properties[key], !(value is NSNull) else { return true }
        guard let bool = value as? Bool else { throw Failure(description: "\"\(key)\" must be true or false") }
        return bool
    }
}
