#if canImport(Glibc)
import Glibc
#endif

/// Loads regions files as the contract says: one GeoJSON FeatureCollection, or a directory of them
/// (`*.geojson`, `*.json`, in name order), ids unique across all. Any error fails the whole load.
public enum RegionLoader {
    public static func load(_ path: String) throws(RegionLoadError) -> RegionStore {
        var store = RegionStore()
        try load(path, into: &store)
        store.shrinkToFit()
        return store
    }

    /// Adds the regions of `path` to `store`; on error `store` is left as it was.
    public static func load(_ path: String, into store: inout RegionStore) throws(RegionLoadError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw RegionLoadError(file: path, reason: systemError()) }
        let files = (info.st_mode & S_IFMT) == S_IFDIR ? try regionFiles(in: path) : [path]
        var loaded = store
        var firstSlots: [(file: String, slot: UInt32)] = []
        for file in files {
            firstSlots.append((file, UInt32(loaded.slotCount)))
            let ingest = FeatureIngest(into: loaded, file: file, firstSlots: firstSlots)
            loaded = RegionStore()   // the ingest's store is then the only one, and appends copy nothing
            var readError: RegionLoadError?
            do throws(RegionLoadError) {
                try withMappedFile(file) { (bytes) throws(RegionLoadError) in
                    var reader = GeoJSONReader(bytes: bytes, file: file)
                    try reader.readFeatures { number, draft in
                        guard ingest.put(number, &draft) else { throw IngestStopped() }
                    }
                }
            } catch {
                readError = error
            }
            // A feature that failed validation comes before whatever stopped the reader.
            if let failure = ingest.finish() { throw failure }
            if let readError { throw readError }
            loaded = ingest.store
        }
        loaded.appendMissingBands()
        store = loaded
    }

    /// Thrown into the reader once a feature has failed, to stop it.
    private struct IngestStopped: Error {}

    static func duplicateMessage(_ id: [UInt8], earlier: UInt32, firstSlots: [(file: String, slot: UInt32)]) -> String {
        let text = "duplicate id \(EchoedText.quoted(id))"
        guard let origin = firstSlots.last(where: { $0.slot <= earlier }) else { return text + " (already loaded)" }
        return text + " (first used by feature \(earlier - origin.slot) of \(origin.file))"
    }

    static func regionFiles(in directory: String) throws(RegionLoadError) -> [String] {
        guard let dir = opendir(directory) else { throw RegionLoadError(file: directory, reason: systemError()) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if !name.hasPrefix("."), name.hasSuffix(".geojson") || name.hasSuffix(".json") { names.append(name) }
        }
        guard !names.isEmpty else { throw RegionLoadError(file: directory, reason: "no *.geojson or *.json files in the directory") }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { base + $0 }
    }

    /// Maps the file read-only so the reader walks the page cache directly, without a copy.
    static func withMappedFile(_ path: String, _ body: (UnsafeRawBufferPointer) throws(RegionLoadError) -> Void) throws(RegionLoadError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw RegionLoadError(file: path, reason: systemError()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw RegionLoadError(file: path, reason: systemError()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw RegionLoadError(file: path, reason: "not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { throw RegionLoadError(file: path, reason: "the file is empty") }
        guard let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            throw RegionLoadError(file: path, reason: systemError())
        }
        defer { munmap(map, size) }
        madvise(map, size, MADV_SEQUENTIAL)
        try body(UnsafeRawBufferPointer(start: map, count: size))
    }

    static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
