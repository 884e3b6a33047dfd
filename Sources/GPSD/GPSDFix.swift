#if canImport(Glibc)
import Glibc
#endif
import CLibGPS

extension Fix {
    /// The fix in a TPV report that libgps has just unpacked, or nil when the report has no position
    /// (mode below 2, or NaN coordinates). `satellites` comes from the latest SKY report: a TPV carries none.
    /// `altitude` is the pre-3.20 name of altMSL, still filled from the JSON "alt" key.
    init?(tpv fix: gps_fix_t, satellites: Int?) {
        guard fix.mode >= MODE_2D, fix.latitude.isFinite, fix.longitude.isFinite else { return nil }
        self.init(
            time: fix.time.tv_sec == 0 ? nil : Timestamp(fix.time),
            coordinate: Coordinate(latitude: fix.latitude, longitude: fix.longitude),
            altitudeMSL: finite(fix.altMSL) ?? finite(fix.altitude),
            speed: finite(fix.speed),
            course: finite(fix.track),
            horizontalAccuracy: (finite(fix.eph) ?? horizontalError(fix.epx, fix.epy)).map { $0 / confidence95 },
            mode: fix.mode >= MODE_3D ? .threeD : .twoD,
            satellites: satellites
        )
    }
}

extension Timestamp {
    /// Rounded to the nearest millisecond; gpsd keeps nanoseconds but receivers report at most milliseconds.
    init(_ time: timespec) {
        self.init(millisecondsSince1970: Int64(time.tv_sec) * 1000 + (Int64(time.tv_nsec) + 500_000) / 1_000_000)
    }
}

/// gpsd states its error estimates at 95% confidence; a Fix holds a 1-sigma radius. 1.96 is the factor
/// gpsd itself applies to a GST's 1-sigma errors (u-blox NEO-M9N log: eph / 1.96 equals the GST radius).
private let confidence95 = 1.96

/// libgps marks every missing value with NaN.
private func finite(_ value: Double) -> Double? {
    value.isFinite ? value : nil
}

/// The radius from the per-axis errors, for receivers that report those but no eph.
private func horizontalError(_ epx: Double, _ epy: Double) -> Double? {
    guard epx.isFinite, epy.isFinite else { return nil }
    return (epx * epx + epy * epy).squareRoot()
}
