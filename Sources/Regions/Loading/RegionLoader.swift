#if canImport(Glibc)
import Glibc
#endif
import FileBytes
import RegionIndex

/// Loads regions files as the contract says: one GeoJSON FeatureCollection (or a lone Feature), or a
/// directory of them (`*.geojson`, `*.json`, either gzip-compressed as `.gz`, in name order), ids
/// unique across all. "-" is standard input. Any error fails the whole load.
public enum RegionLoader {
    /// `skipped` is told of each entry of a directory that is not read, and why; `progress` of the bytes read so
    /// far and the bytes known so far (a directory's total grows file by file; gzip counts inflated bytes).
    public static func load(_ path: String, options: RegionLoadOptions = RegionLoadOptions(),
                            skipped: (_ name: String, _ reason: String) -> Void = { _, _ in },
                            progress: (_ bytesRead: Int, _ bytesKnown: Int) -> Void = { _, _ in }) throws(RegionLoadError) -> RegionStore {
        var store = RegionStore()
        try load(path, into: &store, options: options, skipped: skipped, progress: progress)
        store.shrinkToFit()
        return store
    }

    /// Adds the regions of `path` to `store`; on error `store` is left as it was.
    public static func load(_ path: String, into store: inout RegionStore, options: RegionLoadOptions = RegionLoadOptions(),
                            skipped: (_ name: String, _ reason: String) -> Void = { _, _ in },
                            progress: (_ bytesRead: Int, _ bytesKnown: Int) -> Void = { _, _ in }) throws(RegionLoadError) {
        var info = stat()
        guard path == "-" || stat(path, &info) == 0 else { throw RegionLoadError(file: path, reason: systemError()) }
        let isDirectory = path != "-" && (info.st_mode & S_IFMT) == S_IFDIR
        let files = isDirectory ? try regionFiles(in: path, skipped: skipped) : [path]
        var loaded = store
        var firstSlots: [(file: String, slot: UInt32)] = []
        var bytesBefore = 0
        for file in files {
            firstSlots.append((displayName(file), UInt32(loaded.slotCount)))
            let numbering = options.numberFeatures ? (isDirectory ? baseName(file) + "#" : "") : nil
            // The ingest's store is then the only one, and appends copy nothing.
            loaded = try ingest(consume loaded, name: displayName(file), firstSlots: firstSlots) { (ingest) throws(RegionLoadError) in
                try withContents(of: file) { (bytes) throws(RegionLoadError) in
                    let known = bytesBefore + bytes.count
                    defer { bytesBefore = known }
                    try read(bytes, name: displayName(file), options: options, numbering: numbering, into: ingest,
                             progress: { progress(bytesBefore + $0, known) })
                }
            }
        }
        loaded.appendMissingBands()
        store = loaded
    }

    /// Loads the regions of one GeoJSON document held in memory (a FeatureCollection or a lone Feature, as a file
    /// holds), named `name` in errors: the daemon's `monitor` and its restart read their features this way, with
    /// the same checks as a file, and nothing written to disk.
    public static func load(bytes: UnsafeRawBufferPointer, name: String,
                            options: RegionLoadOptions = RegionLoadOptions()) throws(RegionLoadError) -> RegionStore {
        try load(bytes: bytes, name: name, options: options, id: nil)
    }

    /// The same with each feature's id replaced by `id(n)` for the document's `n`th feature: the daemon's restart
    /// loads the regions of many clients from one document, each under an id that names its owner too.
    package static func load(bytes: UnsafeRawBufferPointer, name: String, options: RegionLoadOptions = RegionLoadOptions(),
                             id: ((Int) -> [UInt8])?) throws(RegionLoadError) -> RegionStore {
        var loaded = try ingest(RegionStore(), name: name, firstSlots: [(name, 0)]) { (ingest) throws(RegionLoadError) in
            try read(bytes, name: name, options: options, numbering: options.numberFeatures ? "" : nil, id: id, into: ingest,
                     progress: { _ in })
        }
        loaded.appendMissingBands()
        loaded.shrinkToFit()
        return loaded
    }

    /// Loads features handed over one at a time, each its own document (a lone Feature) with the id it goes under:
    /// the daemon's restart reads them straight out of its store's rows, never gathering them into one document.
    /// `features` calls `put` with each; an error it throws fails the load, named `name`. The store keeps its spare
    /// capacity: the index built over it (`RegionIndex(_:)`) trims it once it has laid the shapes out, and trimming it
    /// here as well copied every array once more, a twentieth of a restart.
    package static func load(name: String, options: RegionLoadOptions = RegionLoadOptions(),
                             features: (_ put: (_ feature: UnsafeRawBufferPointer, _ id: [UInt8]) throws(RegionLoadError) -> Void) throws -> Void)
        throws(RegionLoadError) -> RegionStore {
        var number = 0
        // One draft for every feature, swapped with the ingest's: a draft made anew for each allocated its buffers
        // and freed the ones it got back, per stored region.
        var draft = FeatureDraft()
        var loaded = try ingest(RegionStore(), name: name, firstSlots: [(name, 0)]) { (ingest) throws(RegionLoadError) in
            do {
                try features { (feature, id) throws(RegionLoadError) in
                    var reader = GeoJSONReader(bytes: feature, file: name, idProperty: options.idProperty)
                    do throws(RegionLoadError) {
                        try reader.readFeatures(into: &draft) { _, draft in
                            draft.id = id
                            draft.hasID = true
                            guard ingest.put(number, &draft) else { throw IngestStopped() }
                        }
                    } catch {
                        throw RegionLoadError(file: name, feature: number, reason: error.reason)
                    }
                    number += 1
                }
            } catch let error as RegionLoadError {
                throw error
            } catch {
                throw RegionLoadError(file: name, reason: "\(error)")
            }
        }
        loaded.appendMissingBands()
        return loaded
    }

    /// Runs `read` against an ingest that validates on a second thread and returns the ingest's store, `store`
    /// with the features added. The ingest takes `store` over: the caller's copy is not to be used again.
    private static func ingest(_ store: consuming RegionStore, name: String, firstSlots: [(file: String, slot: UInt32)],
                               _ read: (FeatureIngest) throws(RegionLoadError) -> Void) throws(RegionLoadError) -> RegionStore {
        let ingest = FeatureIngest(into: store, file: name, firstSlots: firstSlots)
        var readError: RegionLoadError?
        do throws(RegionLoadError) {
            try read(ingest)
        } catch {
            readError = error
        }
        // A feature that failed validation comes before whatever stopped the reader.
        if let failure = ingest.finish() { throw failure }
        if let readError { throw readError }
        return ingest.store
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, name: String, options: RegionLoadOptions, numbering: String?,
                             id: ((Int) -> [UInt8])? = nil, into ingest: FeatureIngest,
                             progress: (Int) -> Void) throws(RegionLoadError) {
        try read(bytes, name: name, options: options, numbering: numbering, progress: progress) { number, draft in
            if let id {
                draft.id = id(number)
                draft.hasID = true
            }
            guard ingest.put(number, &draft) else { throw IngestStopped() }
        }
    }

    /// Reads a document's features, each handed to `put` with its number; `put` throws `InvalidRegion` to refuse one.
    static func read(_ bytes: UnsafeRawBufferPointer, name: String, options: RegionLoadOptions, numbering: String?,
                     progress: (Int) -> Void, _ put: (Int, inout FeatureDraft) throws -> Void) throws(RegionLoadError) {
        if let diagnosis = WrongRegionFile.diagnosis(bytes) { throw RegionLoadError(file: name, reason: diagnosis) }
        var reader = GeoJSONReader(bytes: bytes, file: name, idProperty: options.idProperty, numbering: numbering)
        try reader.readFeatures(progress: progress, put)
    }

    /// Thrown into the reader once a feature has failed, to stop it.
    private struct IngestStopped: Error {}

    static func duplicateMessage(_ id: [UInt8], earlier: UInt32, firstSlots: [(file: String, slot: UInt32)]) -> String {
        let text = "duplicate id \(EchoedText.quoted(id))"
        guard let origin = firstSlots.last(where: { $0.slot <= earlier }) else { return text + " (already loaded)" }
        return text + " (first used by feature \(earlier - origin.slot) of \(origin.file))"
    }

    static let regionFileSuffixes = [".geojson", ".json", ".geojson.gz", ".json.gz"]

    static func regionFiles(in directory: String, skipped: (String, String) -> Void) throws(RegionLoadError) -> [String] {
        guard let dir = opendir(directory) else { throw RegionLoadError(file: directory, reason: systemError()) }
        defer { closedir(dir) }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard name != ".", name != ".." else { continue }
            var info = stat()
            let isDirectory = stat(base + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            if name.hasPrefix(".") {
                skipped(name, "hidden")
            } else if isDirectory {
                skipped(name, "a directory (subdirectories are not read)")
            } else if regionFileSuffixes.contains(where: { name.hasSuffix($0) }) {
                names.append(name)
            } else {
                skipped(name, "not named *.geojson or *.json (optionally .gz)")
            }
        }
        guard !names.isEmpty else { throw RegionLoadError(file: directory, reason: "no *.geojson or *.json files in the directory") }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { base + $0 }
    }

    /// The file's bytes, mapped (or read from standard input, or inflated from gzip) by `WholeFile`.
    static func withContents(of path: String, _ body: (UnsafeRawBufferPointer) throws(RegionLoadError) -> Void) throws(RegionLoadError) {
        do {
            try WholeFile.withContents(of: path) { bytes in try body(bytes) }
        } catch let error as RegionLoadError {
            throw error
        } catch {
            throw RegionLoadError(file: displayName(path), reason: "\(error)")
        }
    }

    static func displayName(_ path: String) -> String { path == "-" ? "standard input" : path }

    static func baseName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
