/// A file whose bytes could not be had: the reason as one phrase ("No such file or directory",
/// "corrupt gzip data at byte 812"); the caller names the file.
public struct FileReadError: Error, CustomStringConvertible, Sendable {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
