import GeoWakeProtocol

/// An error reply: a stable code and a message naming what and where.
public struct ProtocolError: Error, Sendable {
    public var code: ErrorCode
    public var message: String
    /// Whether the daemon closes the connection after replying.
    public var closes = false

    public init(_ code: ErrorCode, _ message: String, closes: Bool = false) {
        self.code = code
        self.message = message
        self.closes = closes
    }

    static func badRequest(_ message: String) -> ProtocolError { ProtocolError(.badRequest, message) }

    /// Reads a request with the protocol's types; what they refuse becomes the reply's error.
    static func reading<T>(_ read: () throws(RequestError) -> T) throws(ProtocolError) -> T {
        do {
            return try read()
        } catch {
            throw ProtocolError(error.code, error.message)
        }
    }
}
