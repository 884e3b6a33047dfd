/// The stored regions of one rule group, as a restart reads them: their features as one GeoJSON document, loaded
/// and validated once (`RegionLoader`, as `locate` loads a file) into the group's index, and each one's entry in
/// the same order.
struct StoredRegions {
    private(set) var document: [UInt8] = Array(#"{"type":"FeatureCollection","features":["#.utf8)
    private(set) var entries: [SharedRegions.Entry] = []

    mutating func append(feature: String, _ entry: SharedRegions.Entry) {
        if !entries.isEmpty { document.append(UInt8(ascii: ",")) }
        document.append(contentsOf: feature.utf8)
        entries.append(entry)
    }

    /// The document, closed.
    var collection: [UInt8] { document + Array("]}".utf8) }
}
