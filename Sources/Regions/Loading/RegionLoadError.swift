/// A regions file or directory that could not be loaded: names the file, the feature (0-based index in
/// its `features` array, when the problem is in one) and the reason. Nothing of a failed load is kept.
public struct RegionLoadError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var feature: Int?
    public var reason: String

    public init(file: String, feature: Int? = nil, reason: String) {
        self.file = file
        self.feature = feature
        self.reason = reason
    }

    /// A feature with no id, in the words of `geowake`'s commands (which name their options that give one); the
    /// daemon, whose clients have no such options, says `missingIDInRequest` instead.
    package static let missingID = "missing id (neither \"id\" nor \"properties.id\"; --id-property NAME or --number-features give one)"
    package static let missingIDInRequest = "missing id (neither \"id\" nor \"properties.id\")"

    public var description: String {
        if let feature { return "\(file): feature \(feature): \(reason)" }
        return "\(file): \(reason)"
    }
}
