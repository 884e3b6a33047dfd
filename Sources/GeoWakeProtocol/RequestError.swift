/// A request the daemon cannot take as sent: the error code it answers with and a message naming the field.
public struct RequestError: Error, Hashable, Sendable {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A missing or wrongly typed field.
    public static func badRequest(_ message: String) -> RequestError { RequestError(.badRequest, message) }
}
