import JSONText
import RegionIndex

/// Streams the features of a GeoJSON FeatureCollection into a `FeatureDraft`, one at a time, straight from
/// the bytes: members may come in any order, unknown members are skipped, ids have their escapes decoded.
struct GeoJSONReader {
    var scanner: JSONScanner
    let file: String
    /// The property that holds the id (`--id-property`), read ahead of the `id` members.
    let idProperty: [UInt8]?
    /// When set, a feature without an id gets this prefix and its index as its id.
    let numbering: String?
    /// Features between two calls of `readFeatures`' progress.
    static let progressInterval = 1024

    init(bytes: UnsafeRawBufferPointer, file: String, idProperty: String? = nil, numbering: String? = nil) {
        scanner = JSONScanner(bytes)
        self.file = file
        self.idProperty = idProperty.map { Array($0.utf8) }
        self.numbering = numbering
    }

    /// Calls `body` with each feature's index and draft; `body` throws `InvalidRegion` to reject it. `progress`
    /// is told the bytes read so far every `progressInterval` features.
    mutating func readFeatures(progress: (_ bytesRead: Int) -> Void = { _ in },
                               _ body: (Int, inout FeatureDraft) throws -> Void) throws(RegionLoadError) {
        var draft = FeatureDraft()
        try readFeatures(into: &draft, progress: progress, body)
    }

    /// The same, reading each feature into `draft`, whose buffers keep their capacity from feature to feature: a
    /// caller that reads many one-feature documents (a restart's stored regions) passes one draft to them all.
    mutating func readFeatures(into draft: inout FeatureDraft, progress: (_ bytesRead: Int) -> Void = { _ in },
                               _ body: (Int, inout FeatureDraft) throws -> Void) throws(RegionLoadError) {
        var index = 0
        let file = self.file
        do {
            try readCollection {
                draft.reset()
                do {
                    try $0.readFeature(into: &draft)
                    if !draft.hasID, let numbering = $0.numbering {
                        draft.id = Array((numbering + String(index)).utf8)
                        draft.hasID = true
                    }
                    try body(index, &draft)
                } catch let error as InvalidRegion {
                    throw RegionLoadError(file: file, feature: index, reason: error.reason)
                }
                index += 1
                if index % Self.progressInterval == 0 { progress($0.scanner.position) }
            }
        } catch let error as RegionLoadError {
            throw error
        } catch let error as JSONSyntaxError {
            let (line, column) = scanner.lineAndColumn(of: error.offset)
            let place = index > 0 || scanner.position > 0 ? " (in feature \(index))" : ""
            throw RegionLoadError(file: file, reason: "invalid JSON at line \(line), column \(column)\(place): \(error.message)")
        } catch {
            throw RegionLoadError(file: file, reason: "\(error)")
        }
    }

    /// Reads a FeatureCollection, or a lone Feature (RFC 7946 allows either as the document): a top-level
    /// object turns out to be a feature at its first member that only a feature has, and is then re-read
    /// from its start as one.
    private mutating func readCollection(_ eachFeature: (inout GeoJSONReader) throws -> Void) throws {
        let documentStart = scanner.peek() == UInt8(ascii: "{") ? scanner.position : nil
        try scanner.expect(UInt8(ascii: "{"))
        var sawFeatures = false
        var type: [UInt8]?
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                let key = try scanner.string()
                try scanner.expect(UInt8(ascii: ":"))
                if key.equals("features") {
                    sawFeatures = true
                    try scanner.expect(UInt8(ascii: "["))
                    if !scanner.consume(UInt8(ascii: "]")) {
                        repeat { try eachFeature(&self) } while try scanner.nextElement(closing: UInt8(ascii: "]"))
                    }
                } else if key.equals("type") {
                    guard scanner.peek() == UInt8(ascii: "\"") else { throw RegionLoadError(file: file, reason: "the top-level \"type\" must be a string") }
                    let value = try scanner.string()
                    if value.equals("Feature") && !sawFeatures, let documentStart {
                        return try readLoneFeature(from: documentStart, eachFeature)
                    }
                    type = Array(value)
                } else if key.equals("geometry") && !sawFeatures, let documentStart {
                    return try readLoneFeature(from: documentStart, eachFeature)
                } else {
                    try scanner.skipValue()
                }
            } while try scanner.nextElement(closing: UInt8(ascii: "}"))
        }
        if !scanner.atEnd() { throw scanner.error("only whitespace may follow the FeatureCollection" + scanner.found()) }
        if let type, !type.elementsEqual("FeatureCollection".utf8) {
            throw RegionLoadError(file: file, reason: "expected a GeoJSON FeatureCollection or Feature, found type \(EchoedText.quoted(type))")
        }
        if !sawFeatures { throw RegionLoadError(file: file, reason: "not a FeatureCollection: no \"features\" array") }
    }

    private mutating func readLoneFeature(from start: Int, _ eachFeature: (inout GeoJSONReader) throws -> Void) throws {
        scanner.position = start
        try eachFeature(&self)
        if !scanner.atEnd() { throw scanner.error("only whitespace may follow the Feature" + scanner.found()) }
    }

    private mutating func readFeature(into draft: inout FeatureDraft) throws {
        guard scanner.peek() == UInt8(ascii: "{") else { throw InvalidRegion("a feature must be a JSON object") }
        scanner.position += 1
        var sawGeometry = false
        var sawType = false
        var propertiesID: [UInt8]?
        var namedID: [UInt8]?
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                let key = try scanner.string()
                try scanner.expect(UInt8(ascii: ":"))
                if key.equals("geometry") {
                    sawGeometry = true
                    try readGeometry(into: &draft)
                } else if key.equals("properties") {
                    (propertiesID, namedID) = try readProperties(into: &draft)
                } else if key.equals("id") {
                    if let id = try readID() { draft.id = id; draft.hasID = true }
                } else if key.equals("type") {
                    guard scanner.peek() == UInt8(ascii: "\"") else { throw InvalidRegion("the feature's \"type\" must be a string") }
                    let type = try scanner.string()
                    guard type.equals("Feature") else {
                        throw InvalidRegion("expected type \"Feature\", found \(EchoedText.quoted(type))")
                    }
                    sawType = true
                } else {
                    try scanner.skipValue()
                }
            } while try scanner.nextElement(closing: UInt8(ascii: "}"))
        }
        if let namedID { draft.id = namedID; draft.hasID = true }
        if !draft.hasID, let propertiesID { draft.id = propertiesID; draft.hasID = true }
        if !sawGeometry { throw InvalidRegion("the feature has no \"geometry\" member") }
        if !sawType { throw InvalidRegion("the feature has no \"type\": \"Feature\" member") }
    }

    /// An id is a string, or a number kept as written; nil for `null`.
    private mutating func readID() throws -> [UInt8]? {
        if scanner.null() { return nil }
        if scanner.peek() == UInt8(ascii: "\"") { return Array(try scanner.string()) }
        guard scanner.atNumber() else { throw InvalidRegion("the id must be a string or a number") }
        let start = scanner.position
        _ = try scanner.number()
        return Array(UnsafeBufferPointer(start: scanner.base + start, count: scanner.position - start))
    }

    /// Returns `properties.id` and the value of the `idProperty` property.
    private mutating func readProperties(into draft: inout FeatureDraft) throws -> (id: [UInt8]?, named: [UInt8]?) {
        if scanner.null() { return (nil, nil) }
        guard scanner.peek() == UInt8(ascii: "{") else { throw InvalidRegion("\"properties\" must be an object or null") }
        scanner.position += 1
        var id: [UInt8]?
        var named: [UInt8]?
        if scanner.consume(UInt8(ascii: "}")) { return (nil, nil) }
        repeat {
            let key = try scanner.string()
            try scanner.expect(UInt8(ascii: ":"))
            if let idProperty, key.elementsEqual(idProperty) {
                guard scanner.peek() == UInt8(ascii: "\"") || scanner.atNumber() || scanner.peek() == UInt8(ascii: "n") else {
                    throw InvalidRegion("the id property \(EchoedText.quoted(idProperty)) must be a string or a number")
                }
                named = try readID()
            } else if key.equals("id") {
                id = try readID()
            } else if key.equals("radius") {
                draft.radius = try number("radius")
            } else if key.equals("kind") {
                guard scanner.peek() == UInt8(ascii: "\"") else { throw InvalidRegion("\"kind\" must be a string") }
                let kind = try scanner.string()
                draft.isBeacon = kind.equals("beacon")
            } else if key.equals("uuid") {
                guard scanner.peek() == UInt8(ascii: "\"") else { throw InvalidRegion("\"uuid\" must be a string") }
                draft.uuid = String(decoding: try scanner.string(), as: UTF8.self)
            } else if key.equals("major") {
                draft.major = try beaconNumber("major")
            } else if key.equals("minor") {
                draft.minor = try beaconNumber("minor")
            } else if key.equals("notifyOnEntry") {
                draft.notifyOnEntry = try bool("notifyOnEntry")
            } else if key.equals("notifyOnExit") {
                draft.notifyOnExit = try bool("notifyOnExit")
            } else if key.equals("dwell") {
                if !scanner.null() { draft.dwell = try number("dwell") }
            } else {
                try scanner.skipValue()
            }
        } while try scanner.nextElement(closing: UInt8(ascii: "}"))
        return (id, named)
    }

    private mutating func number(_ name: String) throws -> Double {
        guard scanner.atNumber() else { throw InvalidRegion("\"\(name)\" must be a number") }
        return try scanner.number()
    }

    private mutating func bool(_ name: String) throws -> Bool {
        let b = scanner.peek()
        guard b == UInt8(ascii: "t") || b == UInt8(ascii: "f") else { throw InvalidRegion("\"\(name)\" must be true or false") }
        return try scanner.bool()
    }

    private mutating func beaconNumber(_ name: String) throws -> UInt16? {
        if scanner.null() { return nil }
        let value = try number(name)
        guard value >= 0, value <= 65535, value == value.rounded() else {
            throw InvalidRegion("beacon \(name) must be an integer from 0 to 65535, found \(value)")
        }
        return UInt16(value)
    }
}
