import JSONText

/// The text of each GeoJSON feature of a file as the client wrote it, cut from the file's bytes: what the daemon stores
/// for a region and hands to the region loader, without writing the parsed features out again (that took two thirds
/// of a `monitor` of 1,000 regions). A request line's own features are cut as it is read (`RequestLine`).
enum FeatureTexts {
    /// The features of a GeoJSON document: a FeatureCollection's, or a lone Feature itself.
    static func ofDocument(_ bytes: UnsafeRawBufferPointer) -> [String]? {
        var scanner = JSONScanner(bytes)
        _ = scanner.peek()
        let start = scanner.position
        if isLoneFeature(bytes) {
            guard (try? scanner.skipValue()) != nil else { return nil }
            return [text(bytes, start..<scanner.position)]
        }
        return try? features(&scanner)
    }

    /// An array of features, or an object whose `features` member is one.
    private static func features(_ scanner: inout JSONScanner) throws -> [String] {
        if scanner.peek() == UInt8(ascii: "{") {
            return try member("features", of: &scanner) { scanner in try elements(&scanner) } ?? []
        }
        return try elements(&scanner)
    }

    private static func elements(_ scanner: inout JSONScanner) throws -> [String] {
        try scanner.expect(UInt8(ascii: "["))
        var texts: [String] = []
        if scanner.consume(UInt8(ascii: "]")) { return texts }
        repeat {
            _ = scanner.peek()
            let start = scanner.position
            try scanner.skipValue()
            texts.append(String(decoding: UnsafeBufferPointer(start: scanner.base + start, count: scanner.position - start), as: UTF8.self))
        } while try scanner.nextElement(closing: UInt8(ascii: "]"))
        return texts
    }

    /// Reads the object at the scanner and hands the value of its member `key` to `body`; nil without that member.
    /// A repeated key's last value counts, as in the parsed request.
    private static func member<T>(_ key: StaticString, of scanner: inout JSONScanner, _ body: (inout JSONScanner) throws -> T) throws -> T? {
        try scanner.expect(UInt8(ascii: "{"))
        if scanner.consume(UInt8(ascii: "}")) { return nil }
        var found: T?
        repeat {
            let name = try scanner.string()
            try scanner.expect(UInt8(ascii: ":"))
            if name.equals(key) {
                found = try body(&scanner)
            } else {
                try scanner.skipValue()
            }
        } while try scanner.nextElement(closing: UInt8(ascii: "}"))
        return found
    }

    private static func isLoneFeature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var scanner = JSONScanner(bytes)
        return (try? member("type", of: &scanner) { scanner in try scanner.string().equals("Feature") }) == true
    }

    private static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
