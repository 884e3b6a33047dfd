/// Why a region is not acceptable, in words a user can act on ("ring 0 of polygon 1 is not closed").
public struct InvalidRegion: Error, CustomStringConvertible, Sendable {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
