#if canImport(Glibc)
import Glibc
#endif
import RegionIndex
import Regions

/// Named region sets kept in the regions bucket, one GeoJSON document per key, every version a revision.
/// Read through `RegionLoader`, the loader of `locate` and `replay`, so a set means the same everywhere.
final class RegionSets {
    private let bucket: KeyValueBucket
    private var loaded: [UInt64: RegionIndex] = [:]

    init(_ connection: NATSConnection, replicas: Int) throws(NATSError) {
        bucket = try KeyValueBucket(connection, name: FleetLayout.regionsBucket, history: 16, replicas: replicas)
    }

    /// Stores a new version of the set; returns its revision.
    func put(_ set: String, geoJSON: [UInt8]) throws(NATSError) -> UInt64 {
        try bucket.put(set, geoJSON)
    }

    /// The set as it was at `revision` (0: no regions yet).
    func index(_ set: String, revision: UInt64) throws -> RegionIndex {
        guard revision > 0 else { return RegionIndex() }
        if let index = loaded[revision] { return index }
        guard let entry = try bucket.get(set, revision: revision) else {
            throw FleetError("region set \(set) has no revision \(revision) (older than the bucket's history?)")
        }
        let index = RegionIndex(try Self.load(entry.value, name: "\(set)@\(revision)"))
        loaded = [revision: index]
        return index
    }

    /// Validates GeoJSON bytes as `locate` would (the same loader, from memory), before they are stored.
    static func load(_ bytes: [UInt8], name: String) throws -> RegionStore {
        do {
            return try bytes.withUnsafeBytes { try RegionLoader.load(bytes: $0, name: name) }
        } catch let error as RegionLoadError {
            throw FleetError("region set \(name): \(error.reason)\(error.feature.map { " (feature \($0))" } ?? "")")
        }
    }
}

/// A fleet failure to report in one line.
public struct FleetError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
