/// How the daemon decides this client's region states: `geowake replay`'s options of the same names. A nil field
/// follows `geowaked`'s own flag. They apply to all the client's regions and are kept across daemon restarts.
public struct RegionRules: Sendable, Equatable {
    /// Metres an exit needs the fix outside the boundary (0–100,000).
    public var hysteresis: Double?
    /// Seconds a change must hold before it is reported (0–86,400).
    public var debounce: Double?
    /// Whether a fix whose accuracy circle straddles a boundary decides nothing.
    public var accuracyGating: Bool?
    /// Whether a region passed through between two fixes, neither inside it, gives `enter` then `exit` marked crossed.
    public var segmentCrossing: Bool?

    /// Rules with the given fields; each one left nil follows `geowaked`'s flag.
    public init(hysteresis: Double? = nil, debounce: Double? = nil, accuracyGating: Bool? = nil, segmentCrossing: Bool? = nil) {
        self.hysteresis = hysteresis
        self.debounce = debounce
        self.accuracyGating = accuracyGating
        self.segmentCrossing = segmentCrossing
    }

    /// The `monitor` fields that set them; null hands a field back to the daemon's flag.
    var fields: [String: JSONValue] {
        ["hysteresis": hysteresis.map(JSONValue.number) ?? .null, "debounce": debounce.map(JSONValue.number) ?? .null,
         "accuracyGating": accuracyGating.map(JSONValue.bool) ?? .null,
         "segmentCrossing": segmentCrossing.map(JSONValue.bool) ?? .null]
    }
}

extension LocationManager {
    /// Sets the rules of all this client's regions, those already monitored included; their states are kept.
    public func setRegionRules(_ rules: RegionRules) async throws {
        _ = try await request("monitor", rules.fields.merging(["features": .array([])]) { a, _ in a })
    }
}
