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

    /// A request the protocol's types refused as sent.
    init(_ error: RequestError) { self.init(error.code, error.message) }
}
