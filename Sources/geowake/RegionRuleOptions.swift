import ArgumentParser
import Geofencing

/// The region monitor's rules as options, one set for `geowake replay` and `geowake fleet worker`: the same
/// defaults and the same checks.
struct RegionRuleOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Regions: metres an exit needs the fix outside the boundary (default 0).")
    var hysteresis: Double?

    @Option(parsing: .unconditional, help: "Regions: seconds a change must hold before it is reported (default 0).")
    var debounce: Double?

    @Flag(inversion: .prefixedNo, help: "Regions: a fix whose accuracy circle straddles a boundary decides nothing (default on).")
    var accuracyGating: Bool?

    @Flag(help: "Regions: hysteresis 0, debounce 0, no accuracy gating: events are the differences of `locate`'s sets.")
    var exact = false

    @Flag(help: "Regions: report regions passed through between two fixes as enter then exit, marked crossed.")
    var segmentCrossing = false

    /// The flags given, by name, for a command that says which service each applies to.
    var given: [(String, Bool)] {
        [("--hysteresis", hysteresis != nil), ("--debounce", debounce != nil), ("--[no-]accuracy-gating", accuracyGating != nil),
         ("--exact", exact), ("--segment-crossing", segmentCrossing)]
    }

    func configuration() throws -> RegionMonitorConfiguration {
        if exact {
            let conflicting = [hysteresis.map { _ in "--hysteresis" }, debounce.map { _ in "--debounce" },
                               accuracyGating.map { $0 ? "--accuracy-gating" : "--no-accuracy-gating" }]
            if let first = conflicting.compactMap({ $0 }).first {
                throw CommandError("--exact turns hysteresis, debounce and accuracy gating off; drop \(first)")
            }
            return .exact(segmentCrossing: segmentCrossing)
        }
        let configuration = RegionMonitorConfiguration(hysteresis: hysteresis ?? 0, debounce: debounce ?? 0,
                                                       accuracyGating: accuracyGating ?? true,
                                                       segmentCrossing: segmentCrossing)
        try configuration.validate()
        return configuration
    }
}
