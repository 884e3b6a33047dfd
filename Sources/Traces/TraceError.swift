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

extension TraceError {
    /// Replay runs services on the fixes' own clock, so a trace none of whose fixes has a date (NMEA with
    /// GGA but no RMC or ZDA) cannot be replayed; fixes before the first date in a dated trace are skipped.
    public static func withoutDates(file: String, fixes: Int) -> TraceError {
        TraceError("none of the \(fixes) fixes has a date (NMEA needs RMC or ZDA sentences for one); "
                   + "replay needs dated fixes, `geowake locate` does not", file: file)
    }
}
