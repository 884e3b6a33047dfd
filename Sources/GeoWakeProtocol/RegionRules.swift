/// How the daemon decides a client's region states: `geowake replay`'s options of the same names, sent with
/// `monitor`. A nil field follows `geowaked`'s own flag. They apply to all the client's regions and are kept across
/// daemon restarts. One type for the library that sends them and the daemon that reads and stores them.
public struct RegionRules: Sendable, Hashable {
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

    static let names = ["hysteresis", "debounce", "accuracyGating", "segmentCrossing"]

    /// The `monitor` fields that set them; null hands a field back to the daemon's flag.
    public var fields: [String: JSONValue] {
        ["hysteresis": hysteresis.map(JSONValue.number) ?? .null, "debounce": debounce.map(JSONValue.number) ?? .null,
         "accuracyGating": accuracyGating.map(JSONValue.bool) ?? .null,
         "segmentCrossing": segmentCrossing.map(JSONValue.bool) ?? .null]
    }

    /// The rules a `monitor` request gives, nil when it names none of the fields (it keeps the client's rules then).
    /// The ranges are the region monitor's to check.
    public init?(monitor fields: [String: JSONValue]) throws(RequestError) {
        guard Self.names.contains(where: { fields[$0] != nil }) else { return nil }
        hysteresis = try fields.number("hysteresis", "a number of metres")
        debounce = try fields.number("debounce", "a number of seconds")
        accuracyGating = try fields.flag("accuracyGating")
        segmentCrossing = try fields.flag("segmentCrossing")
    }
}
