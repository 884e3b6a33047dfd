extension JSONValue {
    /// One line of the protocol as the daemon sent it (a JSON object without a newline); a line that is not JSON is
    /// a `malformedReply` quoting its start.
    public init(line: [UInt8]) throws(GeoWakeError) {
        do {
            self = try line.withUnsafeBytes { bytes throws(SyntaxError) in try JSONValue(parsing: bytes) }
        } catch {
            throw .malformedReply(String(decoding: line.prefix(200), as: UTF8.self))
        }
    }
}
