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

    public var description: String {
        if let feature { return "\(file): feature \(feature): \(reason)" }
        return "\(file): \(reason)"
    }
}
