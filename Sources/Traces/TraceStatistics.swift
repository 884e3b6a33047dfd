/// What a trace reader saw: the numbers behind `geowake fixes`' summary line.
public struct TraceStatistics: Sendable, Equatable {
    /// Sentences (NMEA) or records (gpsd JSON lines, GPX track points) read, including the dropped ones.
    public var sentences = 0
    /// Dropped because the checksum did not match.
    public var checksumErrors = 0
    /// Dropped because they were truncated, over-long, missing fields or held garbage numbers.
    public var malformed = 0
    /// NMEA sentences accepted without a checksum (only before the first checksummed sentence of a stream).
    public var unchecked = 0
    /// Fixes emitted.
    public var fixes = 0
    /// What the format's records are called in the summary: NMEA sentences, gpsd reports, GPX points.
    public var records: String

    public init(records: String = "sentences") {
        self.records = records
    }

    /// The summary line printed on standard error.
    public var summary: String {
        var line = "\(sentences) \(records) read, \(checksumErrors) dropped for checksum, "
            + "\(malformed) dropped as malformed, \(fixes) fixes"
        if unchecked > 0 { line += " (\(unchecked) sentences had no checksum)" }
        return line
    }
}
