#if canImport(Glibc)
import Glibc
#endif
import CNATS
import RegionIndex
import Regions

/// Named region sets kept in the regions bucket, every version a revision of the key NAME. Read through
/// `RegionLoader`, the loader of `locate` and `replay`, so a set means the same everywhere.
///
/// A set that fits in one message is the key's value, its GeoJSON as given. A larger one (the server's
/// `max_payload`, 1 MB by default, 64 MB at most) is cut into chunks stored under `NAME.chunk.TAG.I`
/// (TAG names the content: its length and FNV-1a hash), written first, and the key NAME holds a manifest,
/// `{"geowakeChunks":N,"bytes":B,"tag":"TAG"}`; a reader joins the chunks and checks length and hash.
/// Why chunks in the bucket and not JetStream's object store: libnats 3.4 (Debian's) has no object-store
/// API, and chunked keys keep one bucket, one revision per version and the same loader.
final class RegionSets {
    private let bucket: KeyValueBucket
    private let maxPayload: Int
    /// The latest version read of each set.
    private var loaded: [String: (revision: UInt64, index: RegionIndex)] = [:]

    init(_ connection: NATSConnection, replicas: Int) throws(NATSError) {
        bucket = try KeyValueBucket(connection, name: FleetLayout.regionsBucket, history: 16, replicas: replicas)
        maxPayload = Int(natsConnection_GetMaxPayload(connection.connection))
    }

    /// The size of one chunk: well below the server's limit, leaving room for the message's headers.
    var chunkSize: Int { max(4096, min(8 << 20, maxPayload - 8192)) }

    /// Stores a new version of the set; returns its revision.
    func put(_ set: String, geoJSON: [UInt8]) throws -> UInt64 {
        guard geoJSON.count > chunkSize else { return try bucket.put(set, geoJSON) }
        let manifest = ChunkManifest(of: geoJSON, chunkSize: chunkSize)
        for (i, start) in stride(from: 0, to: geoJSON.count, by: chunkSize).enumerated() {
            try bucket.put(manifest.key(set, i), Array(geoJSON[start..<min(start + chunkSize, geoJSON.count)]))
        }
        return try bucket.put(set, manifest.payload)
    }

    /// The set as it was at `revision` (0: no regions yet).
    func index(_ set: String, revision: UInt64) throws -> RegionIndex {
        guard revision > 0 else { return RegionIndex() }
        if let last = loaded[set], last.revision == revision { return last.index }
        guard let entry = try bucket.get(set, revision: revision) else {
            throw FleetError("region set \(set) has no revision \(revision) (older than the bucket's history?)")
        }
        let bytes = try ChunkManifest(entry.value).map { try join($0, set: set) } ?? entry.value
        let index = RegionIndex(try Self.load(bytes, name: "\(set)@\(revision)"))
        loaded[set] = (revision, index)
        return index
    }

    private func join(_ manifest: ChunkManifest, set: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(manifest.bytes)
        for i in 0..<manifest.chunks {
            guard let chunk = try bucket.get(manifest.key(set, i)) else {
                throw FleetError("region set \(set): chunk \(i) of \(manifest.chunks) (\(manifest.key(set, i))) is missing")
            }
            bytes.append(contentsOf: chunk.value)
        }
        guard ChunkManifest.tag(of: bytes) == manifest.tag else {
            throw FleetError("region set \(set): its \(manifest.chunks) chunks do not add up to what the manifest names")
        }
        return bytes
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

/// A set stored in chunks: how many, how long in all, and a tag naming the content.
struct ChunkManifest: Equatable {
    var chunks: Int
    var bytes: Int
    var tag: String

    init(of content: [UInt8], chunkSize: Int) {
        chunks = (content.count + chunkSize - 1) / chunkSize
        bytes = content.count
        tag = Self.tag(of: content)
    }

    func key(_ set: String, _ i: Int) -> String { "\(set).chunk.\(tag).\(i)" }

    static let prefix = Array(#"{"geowakeChunks":"#.utf8)

    var payload: [UInt8] { Array(#"{"geowakeChunks":\#(chunks),"bytes":\#(bytes),"tag":"\#(tag)"}"#.utf8) }

    /// The manifest a value holds; nil for a value that is the set itself.
    init?(_ value: [UInt8]) throws {
        guard value.starts(with: Self.prefix) else { return nil }
        let text = String(decoding: value, as: UTF8.self)
        let numbers = text.split(whereSeparator: { !$0.isNumber && !$0.isLetter }).map(String.init)
        // {"geowakeChunks":N,"bytes":B,"tag":"T"} → geowakeChunks N bytes B tag T
        guard numbers.count == 6, let chunks = Int(numbers[1]), let bytes = Int(numbers[3]), chunks > 0 else {
            throw FleetError("a region set manifest that cannot be read: \(text.prefix(200))")
        }
        (self.chunks, self.bytes, tag) = (chunks, bytes, numbers[5])
    }

    /// Length and 64-bit FNV-1a hash, in hex: the chunk keys of two different contents do not meet.
    static func tag(of content: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in content { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\(String(content.count, radix: 16))x\(String(hash, radix: 16))"
    }
}

/// A fleet failure to report in one line.
public struct FleetError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
