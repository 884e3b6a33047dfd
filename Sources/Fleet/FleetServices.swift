import Geofencing
import LocationServices

/// Which services every device of a fleet runs, each with the options `geowake replay --service …` takes:
/// region monitoring (on the device's region sets), the standard filter, significant change, visits. A
/// service left nil does not run. On one fix, events come in this order: regions (set by set, in the
/// order the device's assignment names them), standard, significant, visits.
public struct FleetServices: Sendable, Equatable {
    public var regions: RegionMonitorConfiguration?
    public var standard: StandardLocationFilter.Configuration?
    public var significant: SignificantChangeDetector.Configuration?
    public var visits: VisitDetector.Configuration?

    public init(regions: RegionMonitorConfiguration? = RegionMonitorConfiguration(),
                standard: StandardLocationFilter.Configuration? = nil,
                significant: SignificantChangeDetector.Configuration? = nil,
                visits: VisitDetector.Configuration? = nil) {
        self.regions = regions
        self.standard = standard
        self.significant = significant
        self.visits = visits
    }

    /// Region monitoring alone, as a fleet ran before the other services came.
    public static func regions(_ configuration: RegionMonitorConfiguration) -> FleetServices {
        FleetServices(regions: configuration)
    }

    public var names: [String] {
        [regions.map { _ in "regions" }, standard.map { _ in "standard" }, significant.map { _ in "significant" },
         visits.map { _ in "visits" }].compactMap { $0 }
    }
}
