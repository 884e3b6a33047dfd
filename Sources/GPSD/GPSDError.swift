/// Why gpsd could not be reached or watched, in words fit for a log line.
public struct GPSDError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
