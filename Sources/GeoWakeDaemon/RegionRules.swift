import Geofencing
import GeoWakeProtocol

/// How region states are decided: the contract's monitor options, as `geowake replay` takes them (hysteresis and
/// debounce 0, accuracy gating on, segment crossing off by default). `geowaked`'s flags give the defaults; a client may choose its own.
public struct RegionRules: Hashable, Sendable {
    /// Metres an exit needs the fix outside the boundary.
    public var hysteresis: Double
    /// Seconds a change must hold before it is reported.
    public var debounce: Double
    /// A fix whose accuracy circle straddles a boundary decides nothing.
    public var accuracyGating: Bool
    /// Regions passed through between two fixes are reported as `enter` then `exit`, marked `crossed`.
    public var segmentCrossing: Bool

    public init(hysteresis: Double = 0, debounce: Double = 0, accuracyGating: Bool = true, segmentCrossing: Bool = false) {
        self.hysteresis = hysteresis
        self.debounce = debounce
        self.accuracyGating = accuracyGating
        self.segmentCrossing = segmentCrossing
    }

    /// Throws the monitor's own description of an invalid value.
    func configuration() throws(ProtocolError) -> RegionMonitorConfiguration {
        let configuration = RegionMonitorConfiguration(hysteresis: hysteresis, debounce: debounce, accuracyGating: accuracyGating,
                                                       segmentCrossing: segmentCrossing)
        do {
            try configuration.validate()
        } catch {
            throw ProtocolError("internal", error.description)
        }
        return configuration
    }

    /// The rules as `list` shows them.
    var options: JSONValue {
        ["hysteresis": .number(hysteresis), "debounce": .number(debounce), "accuracyGating": .bool(accuracyGating),
         "segmentCrossing": .bool(segmentCrossing)]
    }
}
