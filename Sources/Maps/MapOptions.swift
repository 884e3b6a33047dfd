/// How a map is drawn; every field has the default the command line uses.
public struct MapOptions: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        /// An SVG image.
        case svg
        /// A self-contained HTML page: the SVG inline, hover labels; no network access.
        case html
    }

    public enum TrackColouring: String, Sendable, CaseIterable {
        case speed, time
    }

    public var format: Format = .svg
    public var width: Double = 1200
    public var height: Double = 800
    public var trackColouring: TrackColouring = .speed
    /// Fixes whose horizontal accuracy is worse than this many metres are drawn with their accuracy circle.
    public var poorAccuracy: Double = 25
    public var title = "geowake map"

    public init(format: Format = .svg) {
        self.format = format
    }

    /// The format a file name asks for: `.html`/`.htm` pages, anything else SVG.
    public static func format(forPath path: String) -> Format {
        let lower = path.lowercased()
        return lower.hasSuffix(".html") || lower.hasSuffix(".htm") ? .html : .svg
    }
}
