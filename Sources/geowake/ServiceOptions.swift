import ArgumentParser
import LocationServices

/// The standard, significant-change and visit services' options, one set for `geowake replay` and
/// `geowake fleet worker`: the same flags, defaults and checks.
struct ServiceOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Standard: metres from the last delivered fix (default 0: every fix).")
    var distanceFilter: Double?

    @Option(parsing: .unconditional, help: "Standard: deliver only fixes whose hAcc is at most this many metres.")
    var desiredAccuracy: Double?

    @Option(parsing: .unconditional, help: "Standard: seconds between delivered fixes at least.")
    var minimumInterval: Double?

    @Option(parsing: .unconditional, help: "Significant: metres from the last report (default 500).")
    var significantDistance: Double?

    @Option(parsing: .unconditional, help: "Significant: seconds since the last report (default 300).")
    var significantInterval: Double?

    @Option(parsing: .unconditional, help: "Visits: metres within which the device must stay (default 100).")
    var visitRadius: Double?

    @Option(parsing: .unconditional, help: "Visits: seconds of staying before an arrival (default 300).")
    var visitDuration: Double?

    /// The flags given, with the service (by `--service` name) each applies to.
    var given: [(option: String, service: String, isGiven: Bool)] {
        [("--distance-filter", "standard", distanceFilter != nil), ("--desired-accuracy", "standard", desiredAccuracy != nil),
         ("--minimum-interval", "standard", minimumInterval != nil),
         ("--significant-distance", "significant", significantDistance != nil),
         ("--significant-interval", "significant", significantInterval != nil),
         ("--visit-radius", "visits", visitRadius != nil), ("--visit-duration", "visits", visitDuration != nil)]
    }

    var standard: StandardLocationFilter.Configuration {
        StandardLocationFilter.Configuration(distanceFilter: distanceFilter ?? 0, desiredAccuracy: desiredAccuracy,
                                             minimumInterval: minimumInterval)
    }

    var significant: SignificantChangeDetector.Configuration {
        SignificantChangeDetector.Configuration(distance: significantDistance ?? 500, interval: significantInterval ?? 300)
    }

    var visits: VisitDetector.Configuration {
        VisitDetector.Configuration(radius: visitRadius ?? 100, minimumDuration: visitDuration ?? 300)
    }
}
