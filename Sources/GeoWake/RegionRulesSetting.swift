extension LocationManager {
    /// Sets the rules of all this client's regions, those already monitored included; their states are kept.
    public func setRegionRules(_ rules: RegionRules) async throws {
        _ = try await request("monitor", MonitorRequest(regions: .features([]), rules: rules).fields)
    }
}
