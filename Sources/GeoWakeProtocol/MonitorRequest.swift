/// `monitor`: regions as GeoJSON features, inline or in a file the daemon reads as the client, and optionally the
/// client's region rules. The library sends it; the daemon reads it.
public struct MonitorRequest: Hashable, Sendable {
    public enum Regions: Hashable, Sendable {
        /// Features inline (a FeatureCollection's are taken out of it); none sets only the rules.
        case features([JSONValue])
        /// An absolute path to a GeoJSON file: a FeatureCollection or a lone Feature, gzip-compressed or not.
        case file(String)
    }

    public var regions: Regions
    /// Nil keeps the client's rules.
    public var rules: RegionRules?

    public init(regions: Regions, rules: RegionRules? = nil) {
        self.regions = regions
        self.rules = rules
    }

    public var fields: [String: JSONValue] {
        var fields = rules?.fields ?? [:]
        switch regions {
        case .features(let features): fields["features"] = .array(features)
        case .file(let path): fields["file"] = .string(path)
        }
        return fields
    }

    /// The request as sent: a type error in the rules first, then what is wrong with its regions.
    public init(fields: [String: JSONValue]) throws(RequestError) {
        rules = try RegionRules(monitor: fields)
        switch (fields["features"], fields["file"]) {
        case (let inline?, nil):
            guard let features = inline.array ?? inline["features"]?.array else {
                throw .badRequest("\"features\" must be a FeatureCollection or an array of features")
            }
            regions = .features(features)
        case (nil, let file?):
            guard let path = file.string, path.hasPrefix("/") else { throw .badRequest("\"file\" must be an absolute path") }
            regions = .file(path)
        default:
            throw .badRequest("give exactly one of \"features\" and \"file\"")
        }
    }
}
