import Foundation
import GeoWakeProtocol

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
        let json: JSONValue
        do { json = try data.withUnsafeBytes { bytes throws(JSONValue.SyntaxError) in try JSONValue(parsing: bytes) } } catch {
            throw Failure(description: "\(file): not valid JSON")
        }
        guard let features = json["features"]?.array else {
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
    public static func beaconRegion(_ feature: JSONValue) throws(Failure) -> BeaconRegion? {
        guard let feature = feature.object else { throw Failure(description: "a feature must be an object") }
        let properties = feature["properties"]?.object ?? [:]
        guard properties["kind"] == "beacon" else { return nil }
        guard feature["geometry"] == .null || feature["geometry"] == nil else {
            throw Failure(description: "a beacon region must have a null geometry")
        }
        guard let id = idText(feature["id"]) ?? idText(properties["id"]) else {
            throw Failure(description: "missing id (neither \"id\" nor \"properties.id\")")
        }
        guard let text = properties["uuid"]?.string else {
            throw Failure(description: "a beacon region needs properties.uuid")
        }
        guard let uuid = BeaconUUID(text) else {
            throw Failure(description: "beacon uuid \"\(text)\" is not of the form 8-4-4-4-12 hexadecimal digits")
        }
        var format: BeaconFormat?
        if let value = properties["format"], value != .null {
            guard let name = value.string, let known = BeaconFormat(rawValue: name) else {
                throw Failure(description: "\"format\" must be \"ibeacon\" or \"altbeacon\"")
            }
            format = known
        }
        return BeaconRegion(id: id, uuid: uuid, major: try identifierPart(properties, "major"),
                            minor: try identifierPart(properties, "minor"), format: format,
                            notifyOnEntry: try flag(properties, "notifyOnEntry"),
                            notifyOnExit: try flag(properties, "notifyOnExit"))
    }

    /// A string id as it is, a number id as JSON writes it.
    private static func idText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case .number?: String(decoding: value!.line, as: UTF8.self)
        default: nil
        }
    }

    private static func identifierPart(_ properties: [String: JSONValue], _ key: String) throws(Failure) -> UInt16? {
        guard let value = properties[key], value != .null else { return nil }
        guard case .number(let number) = value, number == number.rounded(), (0...65535).contains(number) else {
            throw Failure(description: "\"\(key)\" must be an integer 0–65535, found \(String(decoding: value.line, as: UTF8.self))")
        }
        return UInt16(number)
    }

    private static func flag(_ properties: [String: JSONValue], _ key: String) throws(Failure) -> Bool {
        guard let value = properties[key], value != .null else { return true }
        guard case .bool(let bool) = value else { throw Failure(description: "\"\(key)\" must be true or false") }
        return bool
    }
}
