import GeoWakeProtocol
import Geofencing

/// A client's region rules (`RegionRules`, as its `monitor` gave them) over `geowaked`'s flags: a field it left out
/// follows the flag, so a client that never chose any follows the daemon's defaults even when those change between
/// runs. The resolved rules are the region monitor's own configuration.
extension RegionRules {
    /// The rules a `monitor` request gives, nil when it names none; a type or range the monitor refuses names its field.
    init?(request fields: [String: JSONValue]) throws(ProtocolError) {
        guard let rules = try ProtocolError.reading({ () throws(RequestError) in try RegionRules(monitor: fields) }) else { return nil }
        self = rules
        try Self.check(hysteresis, "hysteresis", "metres", maximum: RegionMonitorConfiguration.maximumHysteresis)
        try Self.check(debounce, "debounce", "seconds", maximum: RegionMonitorConfiguration.maximumDebounce)
    }

    private static func check(_ value: Double?, _ field: String, _ unit: String, maximum: Double) throws(ProtocolError) {
        guard let value, !(0...maximum).contains(value) else { return }
        throw .badRequest("\"\(field)\" must be a number of \(unit) from 0 to \(Int(maximum))")
    }

    func resolved(over defaults: RegionMonitorConfiguration) -> RegionMonitorConfiguration {
        RegionMonitorConfiguration(hysteresis: hysteresis ?? defaults.hysteresis, debounce: debounce ?? defaults.debounce,
                                   accuracyGating: accuracyGating ?? defaults.accuracyGating,
                                   segmentCrossing: segmentCrossing ?? defaults.segmentCrossing)
    }

    /// The stored JSON (the fields chosen, as `json` writes them); nil or unreadable text is no choice at all.
    init(json: String?) {
        self.init()
        guard let json, let object = try? JSONValue(parsing: json) else { return }
        hysteresis = object["hysteresis"]?.double
        debounce = object["debounce"]?.double
        accuracyGating = object["accuracyGating"]?.bool
        segmentCrossing = object["segmentCrossing"]?.bool
    }

    var json: String {
        String(decoding: JSONValue.object(fields.filter { $0.value != .null }).line, as: UTF8.self)
    }
}

extension RegionMonitorConfiguration {
    /// Throws the monitor's own description of an invalid value.
    func validated() throws(ProtocolError) -> RegionMonitorConfiguration {
        do {
            try validate()
        } catch {
            throw ProtocolError("internal", error.description)
        }
        return self
    }

    /// The rules as `list` shows them.
    var options: JSONValue {
        ["hysteresis": .number(hysteresis), "debounce": .number(debounce), "accuracyGating": .bool(accuracyGating),
         "segmentCrossing": .bool(segmentCrossing)]
    }
}
