/// A timestamp encodes as its integer count of milliseconds since 1970: exact, and the same in any coder.
extension Timestamp: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(millisecondsSince1970: try decoder.singleValueContainer().decode(Int64.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(millisecondsSince1970)
    }
}
