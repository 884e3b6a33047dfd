import Geofencing

/// How region states are decided: the contract's monitor options, as `geowake replay` takes them (hysteresis and
/// debounce 0, accuracy gating on by default). `geowaked`'s flags give the defaults; a client may choose its own.
public struct RegionRules: Hashable, Sendable {
    /// Metres an exit needs the fix outside the boundary.
    public var hysteresis: Double
    /// Seconds a change must hold before it is reported.
    public var debounce: Double
    /// A fix whose accuracy circle straddles a boundary decides nothing.
    public var accuracyGating: Bool

    public init(hysteresis: Double = 0, debounce: Double = 0, accuracyGating: Bool = true) {
        self.hysteresis = hysteresis
        self.debounce = debounce
        self.accuracyGating = accuracyGating
    }

    /// Throws the monitor's own description of an invalid value.
    func configuration() throws(ProtocolError) -> RegionMonitorConfiguration {
        let configuration = RegionMonitorConfiguration(hysteresis: hysteresis, debounce: debounce, accuracyGating: accuracyGating)
        do {
            try configuration.validate()
        } catch {
            throw ProtocolError("internal", error.description)
        }
        return configuration
    }

    /// The rules as `list` shows them.
    var options: [String: Any] {
        ["hysteresis": hysteresis, "debounce": debounce, "accuracyGating": accuracyGating]
    }
}
