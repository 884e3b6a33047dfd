/// The stored regions of one rule group, as a restart reads them: their features as one GeoJSON document, loaded
/// and validated once (`RegionLoader`, as `locate` loads a file) into the group's index, and each one's entry in
/// the same order.
struct StoredRegions {
    private(set) var document: [UInt8] = Array(#"{"type":"FeatureCollection","features":["#.utf8)
    private(set) var entries: [SharedRegions.Entry] = []

    /// Room for `bytes` of features: a million regions' document, grown by doubling, was moved some twenty times.
    init(reservingCapacity bytes: Int = 0) {
        document.reserveCapacity(document.count + bytes + 2)
    }

    /// Appends a feature's text, as stored.
    mutating func append(feature: UnsafeRawBufferPointer, _ entry: SharedRegions.Entry) {
        if !entries.isEmpty { document.append(UInt8(ascii: ",")) }
        document.append(contentsOf: feature)
        entries.append(entry)
    }

    /// The document, closed in place.
    mutating func close() {
        document.append(contentsOf: "]}".utf8)
    }
}
