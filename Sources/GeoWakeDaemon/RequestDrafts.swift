import GeoWakeCore
import RegionIndex
import Regions

/// A `monitor`'s geographic features read and validated as a file's are (`RegionLoader.validatedDrafts`), into
/// drafts the index takes. A large request is read in two halves at once, each as a document of its own: reading
/// is a tenth of registering regions, and the second core is idle until the commit. The halves give what one
/// document gives: when either fails, or an id of the second is in the first, the whole is read again as one, so
/// that the error named is the first one reading in order meets.
enum RequestDrafts {
    /// Below this many features one thread reads them: handing half to another costs more than it saves.
    static let halvingFrom = 256

    static func load(_ texts: [String], positions: [Int]) throws(RegionLoadError) -> [FeatureDraft] {
        guard texts.count >= halvingFrom else { return try read(texts[...], positions[...]) }
        let middle = texts.count / 2
        var first: Result<[FeatureDraft], RegionLoadError> = .success([])
        var second = first
        atOnce({ first = Result { () throws(RegionLoadError) in try read(texts[..<middle], positions[..<middle]) } },
               { second = Result { () throws(RegionLoadError) in try read(texts[middle...], positions[middle...]) } })
        guard case .success(var drafts) = first, case .success(let rest) = second,
              Set(drafts.map(\.id)).isDisjoint(with: rest.lazy.map(\.id)) else {
            return try read(texts[...], positions[...])
        }
        drafts += rest
        return drafts
    }

    /// The texts as one FeatureCollection in one buffer, read as the loader reads a file.
    private static func read(_ texts: ArraySlice<String>, _ positions: ArraySlice<Int>) throws(RegionLoadError) -> [FeatureDraft] {
        var collection: [UInt8] = []
        collection.reserveCapacity(texts.reduce(48) { $0 + $1.utf8.count + 1 })
        collection += "{\"type\":\"FeatureCollection\",\"features\":[".utf8
        for (index, text) in texts.enumerated() {
            if index > 0 { collection.append(UInt8(ascii: ",")) }
            collection += text.utf8
        }
        collection += "]}".utf8
        return try collection.withUnsafeBytes { bytes in
            Result { () throws(RegionLoadError) in try RegionLoader.validatedDrafts(bytes: bytes, name: "request", positions: Array(positions)) }
        }.get()
    }
}
