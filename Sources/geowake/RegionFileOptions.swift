#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import RegionIndex
import Regions
import TerminalProgress

/// The options every command that reads regions takes besides the path: ids for files written without
/// them. Loading reports each file a directory holds but that is not read on standard error, and shows a
/// progress bar there when it is a terminal.
struct RegionFileOptions: ParsableArguments {
    @Option(help: "Take each region's id from this property (GeoJSON from GDAL or geopandas has no \"id\").")
    var idProperty: String?

    @Flag(help: "Give regions without an id their index in the file (FILE#INDEX in a directory).")
    var numberFeatures = false

    func load(_ path: String, command: String, quiet: Bool) throws -> RegionStore {
        let options = RegionLoadOptions(idProperty: idProperty, numberFeatures: numberFeatures)
        var bar = Progress(label: "loading regions", unit: .bytes, total: nil, quiet: quiet)
        defer { bar.finish() }
        return try RegionLoader.load(path, options: options, skipped: { name, reason in
            bar.finish()
            let line = Array("geowake \(command): skipped \(name) in \(path): \(reason)\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }, progress: { done, known in bar.update(done, total: known) })
    }
}
