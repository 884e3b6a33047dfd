/// Why a serial device could not be used, naming the path or the setting.
public struct SerialError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
