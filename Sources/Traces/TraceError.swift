/// A trace that cannot be read at all, as one line naming what and where. Bad sentences or records
/// inside a readable trace are not errors: they are dropped and counted in `TraceStatistics`.
public struct TraceError: Error, CustomStringConvertible, Sendable {
    /// The file, or "standard input".
    public var file: String?
    /// Where in the file, e.g. "byte 0" or "line 12".
    public var location: String?
    public var message: String

    public init(_ message: String, file: String? = nil, location: String? = nil) {
        self.message = message
        self.file = file
        self.location = location
    }

    public var description: String {
        [file, location, message].compactMap { $0 }.joined(separator: ": ")
    }
}
