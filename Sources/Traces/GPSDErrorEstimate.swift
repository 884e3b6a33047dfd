/// The one mapping from gpsd's error estimates to a fix's `hAcc`, used by the gpsd JSON reader and by
/// live gpsd alike. gpsd states eph, epx and epy at 95% confidence; a Fix holds a 1-sigma radius. 1.96
/// is the factor gpsd itself applies to a GST's 1-sigma errors (u-blox NEO-M9N log: eph / 1.96 equals
/// the GST radius). eph comes first, as gpsd's own figure; the per-axis errors only stand in without it.
public enum GPSDErrorEstimate {
    static let confidence95 = 1.96

    /// Metres, or nil when neither eph nor both of epx and epy is a usable number (NaN, ≤ 0, ≥ 1000 km).
    public static func horizontalAccuracy(eph: Double?, epx: Double?, epy: Double?) -> Double? {
        if let eph, usable(eph) { return eph / confidence95 }
        guard let epx, let epy, usable(epx), usable(epy) else { return nil }
        return (epx * epx + epy * epy).squareRoot() / confidence95
    }

    private static func usable(_ metres: Double) -> Bool {
        metres.isFinite && metres > 0 && metres < 1e6
    }
}
